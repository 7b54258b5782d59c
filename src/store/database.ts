/**
 * Opens the database named by `database.url` and brings its schema up to date. SQLite runs in WAL
 * mode so that readers never wait for the writer.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrate } from './migrations.js';
import type { Database } from './tables.js';

export type Db = Kysely<Database>;

function sqlitePath(url: string): string {
  const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  if (path === '') throw new Error('database.url: sqlite: needs a file path (or :memory:)');
  return path;
}

export async function openDatabase(url: string): Promise<Db> {
  if (!url.startsWith('sqlite:')) {
    throw new Error(`database.url: ${url.split(':')[0]} is not supported by this build; use sqlite:<path>`);
  }
  const path = sqlitePath(url);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db as Kysely<unknown>);
  return db;
}
