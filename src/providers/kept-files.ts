/**
 * The files a capability keeps for its results to link to (the search index's indexed files),
 * which the server hands out (http/kept-files.ts). A capability offers them to the plugins built
 * after it (build.ts); the search capability is the one that has any.
 */
import type { KeptFile } from '../engines/searchindex/index.js';

export type { KeptFile };

export interface KeptFiles {
  /** The file at a path below the folder whose key is given; undefined unless the capability keeps it there. */
  keptFile(key: string, path: string): KeptFile | undefined;
}
