/**
 * The index's own tables. The FTS5 table's rowid is the document id; it stores the text as
 * indexed (CJK spaced apart), which snippet() reads. porter over unicode61 stems English and
 * folds diacritics. `key` names a record (kind, link and, for questions, the question), so that
 * indexing it again replaces it. `facets` repeats the few columns that filters read in a narrow
 * table: joining each match to it costs a fraction of reading the document's row. Past queries feed related searches, per scope (one API token).
 * `files` keeps the files indexed from folders whole, under their links (`/<root>/<path>`), so
 * that the index file alone is enough for a server (or a copy of it on another node) to hand them
 * out; `roots` names each folder indexed, by its path on the machine that indexed it, so that
 * indexing it again keeps its id; `settings` holds the secret that roots are keyed with (files.ts);
 * `generation` counts the changes of the documents, which readers' caches follow; `vectors` keeps
 * documents' embeddings for ranking by meaning (vectors.ts).
 */
export const SCHEMA_VERSION = 8;

/** Porter stemming over unicode61, which folds case and diacritics. */
export const TOKENIZER = 'porter unicode61 remove_diacritics 2';

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
-- What filters read, apart from the wide rows: a search joins every match to it.
CREATE TABLE IF NOT EXISTS facets (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  language TEXT,
  country TEXT,
  date TEXT,
  has_image INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_site ON documents(site, kind);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  title, body, tokenize = '${TOKENIZER}'
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocabulary USING fts5vocab(fts, row);
CREATE TABLE IF NOT EXISTS queries (
  id INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,
  text TEXT NOT NULL,
  count INTEGER NOT NULL,
  UNIQUE (scope, text)
);
CREATE TABLE IF NOT EXISTS files (
  link TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  content TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS roots (
  id INTEGER PRIMARY KEY,
  folder TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT OR IGNORE INTO settings (name, value) VALUES ('file_secret', lower(hex(randomblob(32))));
-- Moves with every transaction that changes the documents (add-documents.ts): what a reader
-- keeps between searches (the count, the facets' profile, feedback statistics) holds until it
-- does. A remembered query does not move it, where SQLite's data_version moves with every write.
-- Once per transaction, not by a trigger per row: triggers cost indexing 30 % of its speed.
CREATE TABLE IF NOT EXISTS generation (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n INTEGER NOT NULL
);
INSERT OR IGNORE INTO generation (id, n) VALUES (1, 0);
-- Each a document's embedding, 512 Float32 numbers, under the document's id.
CREATE TABLE IF NOT EXISTS vectors (
  id INTEGER PRIMARY KEY,
  vector BLOB NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS queries_fts USING fts5(
  text, content = 'queries', content_rowid = 'id',
  tokenize = '${TOKENIZER}'
);
`;
