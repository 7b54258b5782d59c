/**
 * The index's own tables. The FTS5 table's rowid is the document id; it stores the text as
 * indexed (CJK spaced apart), which snippet() reads. porter over unicode61 stems English and
 * folds diacritics. `key` names a record (kind, link and, for questions, the question), so that
 * indexing it again replaces it. Past queries feed related searches, per scope (one API token).
 */
export const SCHEMA_VERSION = 3;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  link TEXT NOT NULL,
  site TEXT NOT NULL,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  date TEXT,
  language TEXT,
  country TEXT,
  image_url TEXT,
  source TEXT,
  fields TEXT
);
CREATE INDEX IF NOT EXISTS documents_date ON documents(date);
CREATE INDEX IF NOT EXISTS documents_site ON documents(site, kind);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  title, body, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocabulary USING fts5vocab(fts, row);
CREATE TABLE IF NOT EXISTS queries (
  id INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,
  text TEXT NOT NULL,
  count INTEGER NOT NULL,
  UNIQUE (scope, text)
);
CREATE VIRTUAL TABLE IF NOT EXISTS queries_fts USING fts5(
  text, content = 'queries', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;
