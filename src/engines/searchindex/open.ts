/**
 * Opening an index file: SQLite in WAL mode, its schema made where it is new, an earlier version
 * upgraded where one can be, and any other version refused rather than read wrongly.
 */
import Database from 'better-sqlite3';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';
import { UPGRADABLE_VERSIONS, upgrade } from './upgrade.js';

export class IndexVersionError extends Error {}

export interface OpenedIndex {
  db: Database.Database;
  /** Documents not linked by http(s) URLs that upgrading an earlier version removed (upgrade.ts). */
  removedDocuments: number;
}

export function openIndex(file: string): OpenedIndex {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // An index can be rebuilt from its sources: no sync per remembered query, WAL keeps it whole.
  db.pragma('synchronous = NORMAL');
  const version = db.pragma('user_version', { simple: true }) as number;
  const fresh = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'documents'").get() as {
    n: number;
  };
  let removedDocuments = 0;
  if (fresh.n > 0 && UPGRADABLE_VERSIONS.includes(version)) removedDocuments = upgrade(db, version);
  else if (fresh.n > 0 && version !== SCHEMA_VERSION) {
    db.close();
    throw new IndexVersionError(
      `${file} was built by another version of the search index (${version}, expected ${SCHEMA_VERSION}); remove it and index again`,
    );
  }
  db.exec(SCHEMA);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  return { db, removedDocuments };
}
