/**
 * Opens the database named by `database.url` and brings its schema up to date: a SQLite file
 * (`sqlite:<path>`, the embedded default, in WAL mode so that readers never wait for the writer)
 * or PostgreSQL (`postgres://…`, for several nodes). The same Kysely code runs on both.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDialectConfig } from 'kysely';
import { startCheckpointer } from './checkpointer.js';
import { migrate } from './migrations/index.js';
import type { Database } from './tables.js';

export type Db = Kysely<Database>;

function sqlitePath(url: string): string {
  const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  if (path === '') throw new Error('database.url: sqlite: needs a file path (or :memory:)');
  return path;
}

/** Distinct statements kept prepared; past it the cache starts over. */
const STATEMENTS = 1000;
/**
 * Longer statements are prepared each time: they are the multi-row inserts of batches, whose text
 * varies with the batch size and each of which writes enough rows to dwarf its preparing; kept,
 * hundreds of them would hold megabytes for the life of the process.
 */
const CACHED_CHARS = 2048;

/**
 * The database as Kysely's SQLite driver sees it, with each statement prepared once: the driver
 * prepares every query anew, and preparing costs as much as running a small one. A cached
 * statement is safe to reuse because every query runs whole (no query here streams its rows).
 */
function withPreparedStatements(
  sqlite: SqliteDatabase.Database,
  beforeClose: () => void,
): SqliteDialectConfig['database'] {
  const prepared = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      beforeClose();
      sqlite.close();
    },
    prepare: (text: string) => {
      if (text.length > CACHED_CHARS) return sqlite.prepare(text);
      let statement = prepared.get(text);
      if (!statement) {
        if (prepared.size >= STATEMENTS) prepared.clear();
        statement = sqlite.prepare(text);
        prepared.set(text, statement);
      }
      return statement;
    },
  };
}

/** The better-sqlite3 handle under each SQLite database, for the few writes that go around Kysely. */
const sqliteHandles = new WeakMap<Db, SqliteDatabase.Database>();

export function sqliteHandleOf(db: Db): SqliteDatabase.Database | undefined {
  return sqliteHandles.get(db);
}

function openSqlite(url: string): Db {
  const path = sqlitePath(url);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // A failed checkpoint is not fatal: the backstop threshold still bounds the log.
  const stopCheckpoints = path === ':memory:' ? undefined : startCheckpointer(sqlite, path);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: withPreparedStatements(sqlite, () => void stopCheckpoints?.()),
    }),
  });
  sqliteHandles.set(db, sqlite);
  return db;
}

/**
 * The PostgreSQL driver loads with the first PostgreSQL database: a process on SQLite (a command
 * run by a script, a single node) starts without it, a tenth of a second sooner.
 */
async function openPostgres(url: string, poolSize: number): Promise<Db> {
  const { default: pg } = await import('pg');
  // Times and credits are bigint columns; every value fits a JS number (unix ms, credit counts).
  pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export function isPostgres(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export async function openDatabase(url: string, poolSize = 10): Promise<Db> {
  let db: Db;
  if (url.startsWith('sqlite:')) db = openSqlite(url);
  else if (isPostgres(url)) db = await openPostgres(url, poolSize);
  else
    throw new Error(`database.url: ${url.split(':')[0]} is not supported; use sqlite:<path> or postgres://…`);
  await migrate(db as Kysely<unknown>);
  return db;
}
