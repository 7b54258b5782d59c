/**
 * Artistic QR codes: rendered by the local engine (`local.ts`, one render per core at a time),
 * or relayed to upstreams of this same interface when QR art channels are configured.
 */
import { availableParallelism } from 'node:os';
import { Relay } from '../channels/relay.js';
import { channelsOf, type CapabilityPlugin } from '../plugin.js';
import { QrArtCapability } from './local.js';

export const qrart: CapabilityPlugin = {
  families: ['qrart'],
  build(config, ports) {
    const channels = channelsOf(config, 'qrart');
    if (channels.length > 0) return { qrart: new Relay('qrart', 'QR code', channels, ports.policy) };
    return { qrart: new QrArtCapability(availableParallelism()) };
  },
};
