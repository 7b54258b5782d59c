/**
 * ID cards (`/identity/idcard/check-1e`, `/identity/idcard/ocr`): passthrough channels when
 * configured, else the local engine reading cards and checking them against the local registry.
 * The field keys are this server's either way.
 */
import { availableParallelism } from 'node:os';
import { IdcardPool } from '../../engines/idcard/index.js';
import { channelsOf, type CapabilityPlugin } from '../plugin.js';
import { ChannelRouter } from '../router.js';
import { IdentityCapability } from './capability.js';
import { IdentityPassthrough } from './channels/passthrough.js';
import { FieldKeys } from './field-keys.js';
import { loadIdentityKey } from './identity-key.js';
import { IdentityRegistry } from './registry.js';

export const identity: CapabilityPlugin = {
  families: ['identity'],
  build(config, ports) {
    const key = loadIdentityKey(config.identity);
    const channels = channelsOf(config, 'identity');
    const capability = new IdentityCapability({
      media: ports.media,
      keys: new FieldKeys(ports.db, key),
      keepImages: config.identity.keep_images,
      ...(channels.length > 0
        ? {
            channels: {
              router: new ChannelRouter(channels, ports.policy),
              backends: new Map(channels.map((c) => [c.name, new IdentityPassthrough(c)])),
            },
          }
        : {
            local: {
              engine: new IdcardPool(config.identity.workers ?? availableParallelism()),
              source: new IdentityRegistry(ports.db, key),
            },
          }),
    });
    return { identity: capability };
  },
};
