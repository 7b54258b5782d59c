/**
 * Web search: the local index (`local.ts`) when no search channel is configured, else the
 * channels (`channels/`: SearXNG, Serper, a same-interface upstream, or the local index by name),
 * with routing by search type. Wherever the local index answers, its kept files are served.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type { Config } from '../../config/index.js';
import { channelsOf, type CapabilityPlugin, type ChannelConfig } from '../plugin.js';
import { ChannelRouter } from '../router.js';
import { SerpCapability } from './capability.js';
import { Passthrough } from './channels/passthrough.js';
import { Searxng } from './channels/searxng.js';
import { Serper } from './channels/serper.js';
import { PooledIndex } from './pooled-index.js';
import type { SerpBackend } from './types.js';

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

/** The one local index of a process, however many channels name it. */
function localIndex(config: Config): () => PooledIndex {
  let backend: PooledIndex | undefined;
  return () => {
    if (!backend) {
      mkdirSync(dirname(config.search.index_path), { recursive: true });
      backend = new PooledIndex(
        config.search.index_path,
        {
          rememberQueries: config.search.remember_queries,
          publicBaseUrl: config.public_base_url,
          semanticReranking: config.search.semantic_reranking,
          embedCandidates: config.search.embed_candidates,
        },
        config.search.workers ?? availableParallelism(),
      );
    }
    return backend;
  };
}

function backendOf(channel: ChannelConfig, local: () => SerpBackend): SerpBackend {
  switch (channel.type) {
    case 'searxng':
      return new Searxng(channel);
    case 'serper':
      return new Serper(channel);
    case 'passthrough':
    case 'origin':
      return new Passthrough(channel);
    default:
      return local();
  }
}

export const serp: CapabilityPlugin = {
  families: ['serp'],
  build(config, ports) {
    const configured = channelsOf(config, 'serp');
    const channels = configured.length > 0 ? configured : [IMPLICIT_LOCAL];
    const local = localIndex(config);
    const backends = new Map(channels.map((c) => [c.name, backendOf(c, local)]));
    const index = [...backends.values()].find((backend) => backend instanceof PooledIndex);
    if (index) ports.keepFiles(index);
    return { serp: new SerpCapability(new ChannelRouter(channels, ports.policy), backends) };
  },
};
