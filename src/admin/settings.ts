/**
 * What the server was configured with that an operator reads but does not change at run time:
 * the price table and the local engines' settings. Keys and key files are never shown, only
 * whether one is set.
 */
import type { Config } from '../config/index.js';

export interface EngineSettings {
  engine: string;
  families: string[];
  settings: Record<string, unknown>;
}

export function settingsOf(config: Config): { prices: Config['prices']; engines: EngineSettings[] } {
  const { search, music, video, identity } = config;
  return {
    prices: config.prices,
    engines: [
      {
        engine: 'search index',
        families: ['serp'],
        settings: {
          index_path: search.index_path ?? null,
          remember_queries: search.remember_queries,
          workers: search.workers ?? null,
        },
      },
      {
        engine: 'music',
        families: ['tune'],
        settings: { lyrics_model: music.lyrics_model ?? null, workers: music.workers ?? null },
      },
      { engine: 'video', families: ['clip', 'dance', 'maxi'], settings: { workers: video.workers ?? null } },
      {
        engine: 'ID cards',
        families: ['identity'],
        settings: {
          identity_key: identity.key !== undefined ? 'set in the configuration' : 'read from its key file',
          keep_images: identity.keep_images,
          workers: identity.workers ?? null,
        },
      },
      { engine: 'QR art', families: ['qrart'], settings: {} },
    ],
  };
}
