/**
 * How a capability plugs into the server: the families it serves, and how it is built from the
 * configuration and the ports the server lends it. Each `providers/<capability>/index.ts` exports
 * one; the builder (build.ts) goes through the list in capabilities.ts, so a new capability is a
 * folder and a line there. Inside a folder, `local.ts` adapts the local engine and `channels/`
 * holds the vendor adapters; the passthrough to a same-interface upstream is shared
 * (`providers/channels/`).
 */
import type { Config } from '../config/index.js';
import type { Family } from '../contract/types.js';
import type { AudioPool } from '../engines/audio/index.js';
import type { MediaSources } from '../net/media.js';
import type { Db } from '../store/database.js';
import type { Capability } from './index.js';
import type { RoutingPolicy } from './router.js';
import type { KeptFiles } from './kept-files.js';

export type ChannelConfig = Config['channels'][number];

export interface Ports {
  db: Db;
  media: MediaSources;
  policy: RoutingPolicy;
  /** The capabilities built so far, in the list's order (music writes its lyrics with chat). */
  built: Readonly<Partial<Record<Family, Capability>>>;
  /** The audio engine's threads, made on first use and shared (music, video sound tracks). */
  audio(): AudioPool;
  /** Closes `engine` (a pool of threads) when the server shuts down. */
  closeWith(engine: { close(): Promise<void> }): void;
  /** Hands the server the files the local search index keeps, served under `/search/files`. */
  keepFiles(files: KeptFiles): void;
}

export interface CapabilityPlugin {
  families: readonly Family[];
  build(config: Config, ports: Ports): Partial<Record<Family, Capability>>;
}

/** The configured channels of `family`. */
export function channelsOf(config: Config, family: Family): ChannelConfig[] {
  return config.channels.filter((c) => c.capability === family);
}
