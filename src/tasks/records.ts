/**
 * Reading tasks back: one by id, several by ids, or a page of the token's own. A token only ever
 * sees its own tasks; another token's task answers exactly like one that does not exist.
 */
import type { Db } from '../store/database.js';
import type { Selectable } from 'kysely';
import type { TaskTable } from '../store/tables.js';
import { ServiceError } from '../errors.js';
import { redactUrl } from './redact.js';
import { taskRecord } from './shapes.js';
import { viewOf } from './store.js';

/** The task record of `taskRecord`, with the state of the callback when one was asked for. */
export type TaskRecord = Record<string, unknown>;

export interface Listing {
  limit?: number;
  offset?: number;
  createdAtMin?: number;
  createdAtMax?: number;
}

const DEFAULT_PAGE = 50;

function toRecord(row: Selectable<TaskTable>): TaskRecord {
  const record = taskRecord(viewOf(row));
  if (row.callback_url !== null) {
    record.callback = {
      url: redactUrl(row.callback_url),
      state: row.callback_state ?? 'pending',
      attempts: row.callback_attempts,
      last_status: row.callback_last_status,
    };
  }
  return record;
}

export class TaskRecords {
  constructor(private readonly db: Db) {}

  private own(tokenId: string, family: string) {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('token_id', '=', tokenId)
      .where('family', '=', family);
  }

  /**
   * The rows among `ids` that are the token's and the family's. Fetched by primary key and
   * filtered here: a planner with stale statistics would otherwise walk the token's whole index.
   */
  private async byIds(tokenId: string, family: string, ids: string[]) {
    const rows = await this.db.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
    return rows.filter((row) => row.token_id === tokenId && row.family === family);
  }

  async retrieve(tokenId: string, family: string, id: string): Promise<TaskRecord> {
    const [row] = await this.byIds(tokenId, family, [id.toLowerCase()]);
    if (!row) throw new ServiceError('not_found', `no ${family} task ${id}`);
    return toRecord(row);
  }

  /** The tasks among `ids` that exist and are the token's, in the order asked. */
  async retrieveMany(
    tokenId: string,
    family: string,
    ids: string[],
  ): Promise<{ items: TaskRecord[]; count: number }> {
    const wanted = ids.map((id) => id.toLowerCase());
    const rows = await this.byIds(tokenId, family, wanted);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = [...new Set(wanted)].flatMap((id) => {
      const row = byId.get(id);
      return row ? [toRecord(row)] : [];
    });
    return { items, count: items.length };
  }

  /** A page of the token's tasks, newest first; `count` is the total matching the filters. */
  async list(
    tokenId: string,
    family: string,
    listing: Listing,
  ): Promise<{ items: TaskRecord[]; count: number }> {
    let query = this.own(tokenId, family);
    if (listing.createdAtMin !== undefined)
      query = query.where('created_at', '>=', listing.createdAtMin * 1000);
    if (listing.createdAtMax !== undefined)
      query = query.where('created_at', '<', (listing.createdAtMax + 1) * 1000);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(listing.limit ?? DEFAULT_PAGE)
      .offset(listing.offset ?? 0)
      .execute();
    const total = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return { items: rows.map(toRecord), count: Number(total?.n ?? 0) };
  }
}
