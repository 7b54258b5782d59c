/**
 * The providers of a server, built from its configuration: each capability with channels gets a
 * router over them and a backend per channel. Search always has a provider: without search
 * channels, the local index serves it. Artistic QR codes are rendered locally, and music is
 * made by the local audio engine, which keeps each token's audios in the database.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type { Config } from '../config/index.js';
import { SearchIndex } from '../engines/searchindex/index.js';
import { ChannelRouter, type RoutingPolicy } from './router.js';
import { ChatCapability } from './chat/capability.js';
import { OpenAiCompatible } from './chat/openai-compatible.js';
import { LocalModel } from './chat/local-model.js';
import type { ChatBackend } from './chat/types.js';
import { AudioPool } from '../engines/audio/index.js';
import type { MediaSources } from '../net/media.js';
import type { Db } from '../store/database.js';
import { QrArtCapability } from './qrart/capability.js';
import { TuneCapability } from './tune/capability.js';
// The pool alone, not engines/video/index.js: the renderer runs on the pool's worker threads, and
// the index would load all of it on the server's main thread as well.
import { VideoPool } from '../engines/video/pool.js';
import { VideoCapability } from './video/capability.js';
import { Kling } from './video/channels/kling.js';
import { MiniMax } from './video/channels/minimax.js';
import { VideoPassthrough } from './video/channels/passthrough.js';
import { Seedance } from './video/channels/seedance.js';
import type { VideoBackend, VideoFamily } from './video/channels/types.js';
import { VideoLibrary } from './video/library.js';
import { SoundTrack } from './video/sound.js';
import { MusicLibrary } from './tune/library.js';
import { Lyricist } from './tune/lyricist.js';
import { SerpCapability } from './serp/capability.js';
import { LocalIndex } from './serp/local-index.js';
import { Passthrough } from './serp/passthrough.js';
import { Searxng } from './serp/searxng.js';
import { Serper } from './serp/serper.js';
import type { SerpBackend } from './serp/types.js';
import { IdcardPool } from '../engines/idcard/index.js';
import { IdentityCapability } from './identity/capability.js';
import { FieldKeys } from './identity/field-keys.js';
import { loadIdentityKey } from './identity/identity-key.js';
import { IdentityPassthrough } from './identity/passthrough.js';
import { IdentityRegistry } from './identity/registry.js';
import { Providers, type Capability } from './index.js';

type ChannelConfig = Config['channels'][number];

function chatBackend(channel: ChannelConfig): ChatBackend {
  if (channel.type === 'local-llm') return new LocalModel(channel);
  return new OpenAiCompatible(channel);
}

/** The one local index of a process, however many channels name it. */
function localIndex(config: Config): () => LocalIndex {
  let backend: LocalIndex | undefined;
  return () => {
    if (!backend) {
      mkdirSync(dirname(config.search.index_path), { recursive: true });
      backend = new LocalIndex(new SearchIndex(config.search.index_path), {
        rememberQueries: config.search.remember_queries,
        publicBaseUrl: config.public_base_url,
      });
    }
    return backend;
  };
}

function serpBackend(channel: ChannelConfig, local: () => SerpBackend): SerpBackend {
  switch (channel.type) {
    case 'searxng':
      return new Searxng(channel);
    case 'serper':
      return new Serper(channel);
    case 'passthrough':
      return new Passthrough(channel);
    default:
      return local();
  }
}

/** Without search channels, the local index answers every search type. */
const IMPLICIT_LOCAL: ChannelConfig = {
  name: 'local-index',
  capability: 'serp',
  type: 'local-index',
  models: ['*'],
  model_map: {},
  priority: 0,
  weight: 1,
  timeout_seconds: 120,
};

/** What engines that keep state or read inputs need from the server. */
export interface EngineResources {
  db: Db;
  media: MediaSources;
}

/** Lyrics come from a chat model when there is one: the configured one, or the first a channel names. */
function lyricistOf(config: Config, chat: ChatCapability | undefined): Lyricist {
  const named = config.channels.find((c) => c.capability === 'chat')?.models.find((m) => m !== '*');
  const model = config.music.lyrics_model ?? named;
  return new Lyricist(chat && model ? { capability: chat, model } : undefined);
}

function videoBackend(channel: ChannelConfig): VideoBackend {
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

const VIDEO_FAMILIES: readonly VideoFamily[] = ['clip', 'dance', 'maxi'];

/**
 * ID cards: passthrough channels when configured, else the local engine checking cards against
 * the local registry. The field keys are this server's either way.
 */
function identityOf(config: Config, resources: EngineResources, policy: RoutingPolicy): IdentityCapability {
  const key = loadIdentityKey(config.identity);
  const channels = config.channels.filter((c) => c.capability === 'identity');
  return new IdentityCapability({
    media: resources.media,
    keys: new FieldKeys(resources.db, key),
    keepImages: config.identity.keep_images,
    ...(channels.length > 0
      ? {
          channels: {
            router: new ChannelRouter(channels, policy),
            backends: new Map(channels.map((c) => [c.name, new IdentityPassthrough(c)])),
          },
        }
      : {
          local: {
            engine: new IdcardPool(config.identity.workers ?? availableParallelism()),
            source: new IdentityRegistry(resources.db, key),
          },
        }),
  });
}

export function providersFrom(config: Config, resources?: EngineResources): Providers {
  const policy: RoutingPolicy = {
    retries: config.routing.retries,
    backoffMs: config.routing.backoff_ms,
    cooldownAfter: config.routing.cooldown_after,
    cooldownSeconds: config.routing.cooldown_seconds,
  };
  const capabilities: Partial<
    Record<'chat' | 'serp' | 'qrart' | 'tune' | 'identity' | VideoFamily, Capability>
  > = {
    // The QR renderer is local and needs nothing configured: one render per core at a time.
    qrart: new QrArtCapability(availableParallelism()),
  };
  const chat = config.channels.filter((c) => c.capability === 'chat');
  if (chat.length > 0) {
    const backends = new Map(chat.map((c) => [c.name, chatBackend(c)]));
    capabilities.chat = new ChatCapability(new ChannelRouter(chat, policy), backends);
  }
  if (resources) {
    const audio = new AudioPool(config.music.workers ?? availableParallelism());
    capabilities.tune = new TuneCapability(
      new MusicLibrary(resources.db),
      audio,
      lyricistOf(config, capabilities.chat as ChatCapability | undefined),
      resources.media,
    );
    // One pool of render threads for the three video families, which share the local engine.
    const videos = new VideoPool(config.video.workers ?? availableParallelism());
    const library = new VideoLibrary(resources.db);
    for (const family of VIDEO_FAMILIES) {
      const channels = config.channels.filter((c) => c.capability === family);
      const upstreams =
        channels.length > 0
          ? {
              router: new ChannelRouter(channels, policy),
              backends: new Map(channels.map((c) => [c.name, videoBackend(c)])),
            }
          : undefined;
      capabilities[family] = new VideoCapability(family, library, videos, new SoundTrack(audio), upstreams);
    }
    capabilities.identity = identityOf(config, resources, policy);
  }
  const configured = config.channels.filter((c) => c.capability === 'serp');
  const serp = configured.length > 0 ? configured : [IMPLICIT_LOCAL];
  const local = localIndex(config);
  const backends = new Map(serp.map((c) => [c.name, serpBackend(c, local)]));
  capabilities.serp = new SerpCapability(new ChannelRouter(serp, policy), backends);
  // Its files are handed out wherever the local index answers searches.
  const keptFiles = [...backends.values()].find((backend) => backend instanceof LocalIndex);
  return new Providers(capabilities, keptFiles);
}
