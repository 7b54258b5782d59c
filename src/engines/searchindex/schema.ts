/**
 * The index's own tables. The FTS5 table's rowid is the document id; it stores the text as
 * indexed (CJK spaced apart), which snippet() reads. porter over unicode61 stems English and
 * folds diacritics.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY,
  link TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  date TEXT,
  language TEXT,
  country TEXT,
  type TEXT,
  image_url TEXT
);
CREATE INDEX IF NOT EXISTS documents_date ON documents(date);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  title, body, tokenize = 'porter unicode61 remove_diacritics 2'
);
`;
