/**
 * What earlier versions of the index lack or linked that this one no longer hands out. Version 7
 * lacks only the documents' embeddings (`vectors`), which the schema adds; its writers did not
 * drop a replaced document's vector, so a program of version 7 refuses a file of version 8. Version 6
 * lacks only the count of document changes (`generation`), which the schema adds; its writers
 * did not move it, so it is a version of its own: a program of version 6 refuses a file of
 * version 7 rather than add documents that the readers' caches would not see. Version 4 linked
 * files by `file://` URLs, which named the indexing machine's disk and opened nowhere else.
 * Version 5 kept files under a key per file, which broke the relative links between them (a
 * folder has one key now, files.ts), and nothing says which folder each came from. Both took
 * records linked by any scheme (`javascript:` …). Upgrading removes every document not linked by
 * an http(s) URL, and version 5's kept files; indexing their folders again brings them back.
 * Everything else is kept as it is.
 */
import type Database from 'better-sqlite3';

export const UPGRADABLE_VERSIONS: readonly number[] = [4, 5, 6, 7];

/** Removes the documents an earlier version linked otherwise than by http(s); answers how many. */
export function upgrade(db: Database.Database, version: number): number {
  if (version === 7) return 0;
  if (version === 6) {
    // Some version 6 files moved the count by triggers per facets row, which slowed indexing.
    for (const trigger of ['facets_added', 'facets_removed', 'facets_changed'])
      db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
    return 0;
  }
  return db.transaction(() => {
    const unlinked = "SELECT id FROM documents WHERE NOT (link LIKE 'http://%' OR link LIKE 'https://%')";
    db.exec(`DELETE FROM fts WHERE rowid IN (${unlinked}); DELETE FROM facets WHERE id IN (${unlinked});`);
    // Version 5's files, keyed by their own paths: the schema makes the table afresh.
    db.exec('DROP TABLE IF EXISTS files');
    return db.prepare(`DELETE FROM documents WHERE id IN (${unlinked})`).run().changes;
  })();
}
