/**
 * The providers of a server, built from its configuration: each capability in the list builds
 * its families (capabilities.ts), lent the database, media sources, routing policy and the
 * engines several capabilities share.
 */
import { availableParallelism } from 'node:os';
import type { Config } from '../config/index.js';
import { AudioPool } from '../engines/audio/index.js';
import type { MediaSources } from '../net/media.js';
import type { Db } from '../store/database.js';
import { CAPABILITIES } from './capabilities.js';
import { Providers, type Capability } from './index.js';
import type { Ports } from './plugin.js';
import type { RoutingPolicy } from './router.js';
import type { KeptFiles } from './kept-files.js';
import type { Family } from '../contract/types.js';
import type { ChannelBoard } from './channel-board.js';

/** What engines that keep state or read inputs need from the server. */
export interface EngineResources {
  db: Db;
  media: MediaSources;
  /** The operators' switches and the channels' recent calls (admin API). */
  board?: ChannelBoard;
}

export function providersFrom(config: Config, resources: EngineResources): Providers {
  const policy: RoutingPolicy = {
    retries: config.routing.retries,
    backoffMs: config.routing.backoff_ms,
    cooldownAfter: config.routing.cooldown_after,
    cooldownSeconds: config.routing.cooldown_seconds,
    ...(resources.board ? { board: resources.board } : {}),
  };
  const built: Partial<Record<Family, Capability>> = {};
  const shared: { close(): Promise<void> }[] = [];
  let audio: AudioPool | undefined;
  let keptFiles: KeptFiles | undefined;
  const ports: Ports = {
    ...resources,
    policy,
    built,
    audio: () => {
      if (!audio) {
        audio = new AudioPool(config.music.workers ?? availableParallelism());
        shared.push(audio);
      }
      return audio;
    },
    closeWith: (engine) => shared.push(engine),
    keepFiles: (files) => (keptFiles = files),
  };
  for (const capability of CAPABILITIES) Object.assign(built, capability.build(config, ports));
  return new Providers(built, keptFiles, shared);
}
