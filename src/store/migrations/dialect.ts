/** Which database a migration runs on, where the two must be told apart. */
import { SqliteAdapter, type Kysely } from 'kysely';

export function onSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
