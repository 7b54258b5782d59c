/**
 * The audit of admin actions: who (the admin token's name and id, or `cli`), what, to which thing, when,
 * with the action's parameters, never a secret. Written in the action's own transaction where
 * there is one, so an action is never done without its record.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../store/database.js';
import type { Database } from '../store/tables.js';
import { recordId } from '../accounts/record-id.js';
import { iso, pageOf, type Page } from './values.js';
import { pageById } from './keyset-page.js';

/** Who acts: an admin token (its name, and its id, since names are reused), or the command line. */
export interface Actor {
  name: string;
  id: string | null;
}

/** The command line's actions: run by whoever may open the database. */
export const CLI: Actor = { name: 'cli', id: null };

export interface AuditEntry {
  id: string;
  at: string | null;
  actor: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  detail: unknown;
}

export async function audit(
  db: Kysely<Database>,
  actor: Actor,
  action: string,
  target: string | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('audit')
    .values({
      id: recordId(now),
      actor: actor.name,
      actor_id: actor.id,
      action,
      target,
      detail: Object.keys(detail).length > 0 ? JSON.stringify(detail) : null,
      created_at: now,
    })
    .execute();
}

export async function auditLog(db: Db, query: { before?: string; limit: number }): Promise<Page<AuditEntry>> {
  const rows = await pageById(db.selectFrom('audit').selectAll(), query).execute();
  return pageOf(
    rows,
    query.limit,
    (row) => ({
      id: row.id,
      at: iso(row.created_at),
      actor: row.actor,
      actor_id: row.actor_id ?? null,
      action: row.action,
      target: row.target,
      detail: row.detail === null ? {} : (JSON.parse(row.detail) as unknown),
    }),
    (row) => [row.id],
  );
}
