/**
 * Video, three families (`/clip/videos`, `/dance/videos`, `/maxi/videos`): rendered by the local
 * engine, whose one pool of render threads the three share, or sent to the family's channels
 * (`channels/`: Kling, Seedance, MiniMax, or a same-interface upstream). Sound tracks come from
 * the audio engine.
 */
import { availableParallelism } from 'node:os';
// The pool alone, not engines/video/index.js: the renderer runs on the pool's worker threads, and
// the index would load all of it on the server's main thread as well.
import { VideoPool } from '../../engines/video/pool.js';
import type { Capability } from '../index.js';
import { channelsOf, type CapabilityPlugin, type ChannelConfig } from '../plugin.js';
import { ChannelRouter } from '../router.js';
import { VideoCapability } from './capability.js';
import { Kling } from './channels/kling.js';
import { MiniMax } from './channels/minimax.js';
import { VideoPassthrough } from './channels/passthrough.js';
import { Seedance } from './channels/seedance.js';
import type { VideoBackend, VideoFamily } from './channels/types.js';
import { VideoLibrary } from './library.js';
import { SoundTrack } from './sound.js';

const FAMILIES: readonly VideoFamily[] = ['clip', 'dance', 'maxi'];

function backendOf(channel: ChannelConfig): VideoBackend {
  switch (channel.type) {
    case 'kling':
      return new Kling(channel);
    case 'seedance':
      return new Seedance(channel);
    case 'minimax':
      return new MiniMax(channel);
    default:
      return new VideoPassthrough(channel);
  }
}

export const video: CapabilityPlugin = {
  families: FAMILIES,
  build(config, ports) {
    const pool = new VideoPool(config.video.workers ?? availableParallelism());
    ports.closeWith(pool);
    const library = new VideoLibrary(ports.db);
    const sound = new SoundTrack(ports.audio());
    const built: Partial<Record<VideoFamily, Capability>> = {};
    for (const family of FAMILIES) {
      const channels = channelsOf(config, family);
      const upstreams =
        channels.length > 0
          ? {
              router: new ChannelRouter(channels, ports.policy),
              backends: new Map(channels.map((c) => [c.name, backendOf(c)])),
            }
          : undefined;
      built[family] = new VideoCapability(family, library, pool, sound, upstreams);
    }
    return built;
  },
};
