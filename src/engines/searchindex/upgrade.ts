/**
 * Version 4 of the index linked files by `file://` URLs: they named the indexing machine's disk
 * and opened nowhere else. Upgrading removes those documents; indexing their folders again brings
 * them back as kept files (files.ts). Everything else of a version 4 index is kept as it is.
 */
import type Database from 'better-sqlite3';

export const UPGRADABLE_VERSION = 4;

/** Removes the documents linked by file:// URLs; answers how many there were. */
export function upgradeFromVersion4(db: Database.Database): number {
  return db.transaction(() => {
    const linked = "SELECT id FROM documents WHERE link LIKE 'file:%'";
    db.exec(`DELETE FROM fts WHERE rowid IN (${linked}); DELETE FROM facets WHERE id IN (${linked});`);
    return db.prepare("DELETE FROM documents WHERE link LIKE 'file:%'").run().changes;
  })();
}
