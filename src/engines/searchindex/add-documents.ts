/**
 * Writing documents into the index: each record's row, its facets (what filters read) and its
 * text for FTS5 (CJK characters spaced, as the tokenizer wants them), all in one transaction; a
 * record indexed before is replaced, and a document's file is kept for the server to hand out.
 */
import type Database from 'better-sqlite3';
import { spaceCjk, tokenCount } from './cjk.js';
import type { KeptFiles } from './files.js';
import { primaryLanguage } from './filters.js';
import { recordKey, siteOf } from './records.js';
import type { SearchDocument } from './types.js';

export function addDocuments(
  db: Database.Database,
  files: KeptFiles,
  documents: readonly SearchDocument[],
): void {
  const existing = db.prepare<[string], { id: number }>('SELECT id FROM documents WHERE key = ?');
  const dropText = db.prepare('DELETE FROM fts WHERE rowid = ?');
  const dropRow = db.prepare('DELETE FROM documents WHERE id = ?');
  const dropFacets = db.prepare('DELETE FROM facets WHERE id = ?');
  // A replaced document's embedding no longer says what it is about; its id may come back.
  const dropVector = db.prepare('DELETE FROM vectors WHERE id = ?');
  const facets = db.prepare(
    'INSERT INTO facets (id, kind, language, country, date, has_image) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insert = db.prepare(
    `INSERT INTO documents (key, kind, link, site, title, text, tokens, date, language, country, image_url, source, fields)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const index = db.prepare('INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)');
  // Readers on other connections forget what they kept about the documents (schema.ts).
  const changed = db.prepare('UPDATE generation SET n = n + 1');
  db.transaction(() => {
    for (const doc of documents) {
      const key = recordKey(doc);
      const old = existing.get(key);
      if (old) {
        dropText.run(old.id);
        dropRow.run(old.id);
        dropFacets.run(old.id);
        dropVector.run(old.id);
      }
      const kind = doc.kind ?? 'page';
      const date = doc.date ?? null;
      const language = doc.language ? primaryLanguage(doc.language) : null;
      const country = doc.country?.toUpperCase() ?? null;
      const { lastInsertRowid } = insert.run(
        key,
        kind,
        doc.link,
        siteOf(doc.link),
        doc.title,
        doc.text,
        tokenCount(doc.title) + tokenCount(doc.text),
        date,
        language,
        country,
        doc.image_url ?? null,
        doc.source ?? null,
        doc.fields && Object.keys(doc.fields).length > 0 ? JSON.stringify(doc.fields) : null,
      );
      facets.run(lastInsertRowid, kind, language, country, date, doc.image_url ? 1 : 0);
      index.run(lastInsertRowid, spaceCjk(doc.title), spaceCjk(doc.text));
      if (doc.file) files.put(doc.link, doc.file);
    }
    changed.run();
  })();
}
