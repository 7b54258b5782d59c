/**
 * Music (`/tune/audios`, `/tune/vox`, `/tune/personas`): made by the local audio engine
 * (`local.ts`), which keeps each token's audios in the database, or relayed to upstreams of this
 * same interface when music channels are configured. Lyrics come from a chat model when there
 * is one: the configured one, or the first a chat channel names.
 */
import type { Config } from '../../config/index.js';
import type { ChatCapability } from '../chat/capability.js';
import { Relay } from '../channels/relay.js';
import type { Capability } from '../index.js';
import { channelsOf, type CapabilityPlugin } from '../plugin.js';
import { MusicLibrary } from './library.js';
import { TuneCapability } from './local.js';
import { Lyricist } from './lyricist.js';

function lyricistOf(config: Config, chat: Capability | undefined): Lyricist {
  const named = channelsOf(config, 'chat')[0]?.models.find((m) => m !== '*');
  const model = config.music.lyrics_model ?? named;
  return new Lyricist(chat && model ? { capability: chat as ChatCapability, model } : undefined);
}

export const tune: CapabilityPlugin = {
  families: ['tune'],
  build(config, ports) {
    const channels = channelsOf(config, 'tune');
    if (channels.length > 0) return { tune: new Relay('tune', 'music', channels, ports.policy) };
    return {
      tune: new TuneCapability(
        new MusicLibrary(ports.db),
        ports.audio(),
        lyricistOf(config, ports.built.chat),
        ports.media,
      ),
    };
  },
};
