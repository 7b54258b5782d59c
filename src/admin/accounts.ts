/**
 * Accounts as an operator sees them: the customer behind tokens, with the balance they share, its
 * budgets and what each window used, the low-balance line, and the tokens. Credits change only
 * through the ledger, with the admin's name and note; every change is audited.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../store/database.js';
import type { AccountTable, Database } from '../store/tables.js';
import { ServiceError } from '../errors.js';
import type { Tokens } from '../accounts/tokens.js';
import { changeBalance, entryOf } from '../accounts/ledger.js';
import { openAccount } from '../accounts/account-rows.js';
import { budgetsOf, windowsOf, type Budget, type BudgetRule } from '../accounts/budgets.js';
import { usedIn } from '../accounts/budget-use.js';
import { audit, type Actor } from './audit.js';
import { iso, notFound, pageOf, type Page } from './values.js';
import { pageByCreation } from './keyset-page.js';

/** A budget window as a record shows it. */
export interface WindowRecord {
  period: string;
  credits: number;
  used: number;
  remaining: number;
  resets_at: string | null;
}

export interface AccountRecord {
  id: string;
  name: string;
  unlimited: boolean;
  balance: number | null;
  low_balance: number | null;
  budgets: WindowRecord[];
  tokens: { id: string; name: string; revoked: boolean }[];
  created_at: string | null;
}

export interface NewAccountSpec {
  name: string;
  credits?: number;
  unlimited?: boolean;
  budgets?: BudgetRule[];
  low_balance?: number | null;
}

export interface AccountPatch {
  budgets?: BudgetRule[] | null;
  low_balance?: number | null;
  unlimited?: boolean;
}

/** What each of `budgets`' current windows used and has left. */
export async function windowRecords(
  db: Db,
  budgets: readonly Budget[],
  zone: string,
): Promise<WindowRecord[]> {
  const windows = windowsOf(budgets, Date.now(), zone);
  const used = await usedIn(db, windows);
  return windows.map((w, i) => ({
    period: w.period,
    credits: w.limit,
    used: used[i]!,
    remaining: Math.max(0, w.limit - used[i]!),
    resets_at: iso(w.resetsAt),
  }));
}

export class AccountAdmin {
  constructor(
    private readonly db: Db,
    private readonly tokens: Tokens,
    /** The billing time zone of budget windows. */
    private readonly zone: string,
  ) {}

  private async records(rows: Selectable<AccountTable>[]): Promise<AccountRecord[]> {
    const ids = rows.map((r) => r.id);
    const tokenRows =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom('tokens')
            .select(['id', 'name', 'account_id', 'revoked_at'])
            .where('account_id', 'in', ids)
            .orderBy('created_at')
            .execute();
    return Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        name: row.name,
        unlimited: row.credits === null,
        balance: row.credits === null ? null : Number(row.credits),
        low_balance: row.low_balance === null ? null : Number(row.low_balance),
        budgets: await windowRecords(this.db, budgetsOf(`account:${row.id}`, '', row.budgets), this.zone),
        tokens: tokenRows
          .filter((t) => t.account_id === row.id)
          .map((t) => ({ id: t.id, name: t.name, revoked: t.revoked_at !== null })),
        created_at: iso(Number(row.created_at)),
      })),
    );
  }

  async list(query: { before?: string; limit: number; q?: string }): Promise<Page<AccountRecord>> {
    // An operator's token has an account of its own, which spends nothing: not a customer.
    const operators = this.db.selectFrom('tokens').select('account_id').where('role', '<>', 'client');
    let select = pageByCreation(
      this.db.selectFrom('accounts').selectAll().where('id', 'not in', operators),
      query,
    );
    if (query.q) select = select.where('name', 'like', `%${query.q.replace(/[%_\\]/g, '')}%`);
    const page = pageOf(
      await select.execute(),
      query.limit,
      (r) => r,
      (r) => [Number(r.created_at), r.id],
    );
    return { rows: await this.records(page.rows), next: page.next };
  }

  /** By name or id. */
  async row(nameOrId: string, db: Kysely<Database> = this.db): Promise<Selectable<AccountTable>> {
    const row = await db
      .selectFrom('accounts')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', nameOrId), eb('name', '=', nameOrId)]))
      .executeTakeFirst();
    if (!row) throw notFound(`account with id or name ${nameOrId}`);
    return row;
  }

  async get(nameOrId: string): Promise<AccountRecord> {
    return (await this.records([await this.row(nameOrId)]))[0] as AccountRecord;
  }

  async create(spec: NewAccountSpec, actor: Actor): Promise<AccountRecord> {
    if (spec.unlimited === true && spec.credits !== undefined)
      throw new ServiceError('bad_request', 'credits: an unlimited account has no balance', {
        details: [{ field: 'credits', rule: 'must be absent when unlimited is true' }],
      });
    const id = randomUUID();
    await this.db.transaction().execute(async (trx) => {
      await openAccount(trx, {
        id,
        name: spec.name,
        credits: spec.unlimited ? null : (spec.credits ?? 0),
        budgets: spec.budgets ?? null,
        lowBalance: spec.low_balance ?? null,
        actor: actor.name,
      });
      await audit(trx, actor, 'account.create', spec.name, { id, ...spec });
    });
    return this.get(id);
  }

  async update(nameOrId: string, patch: AccountPatch, actor: Actor): Promise<AccountRecord> {
    const account = await this.row(nameOrId);
    await this.db.transaction().execute(async (trx) => {
      const set: Partial<Selectable<AccountTable>> = {};
      if (patch.budgets !== undefined)
        set.budgets = patch.budgets?.length ? JSON.stringify(patch.budgets) : null;
      if (patch.low_balance !== undefined) set.low_balance = patch.low_balance;
      if (Object.keys(set).length > 0)
        await trx.updateTable('accounts').set(set).where('id', '=', account.id).execute();
      if (patch.unlimited !== undefined) await setUnlimited(trx, account.id, patch.unlimited, actor);
      await this.tokens.accountChanged(trx, account.id);
      await audit(trx, actor, 'account.update', account.name, { id: account.id, ...patch });
    });
    this.tokens.forgetAll();
    return this.get(account.id);
  }

  /**
   * A top-up (delta > 0) or a deduction (delta < 0) through the ledger, with the actor and the
   * note; never below zero (409 `conflict`, naming the balance). Answers the new balance.
   */
  async credit(
    nameOrId: string,
    delta: number,
    note: string | undefined,
    actor: Actor,
    subject: { action: string; name: string } = { action: 'account.credits', name: '' },
  ): Promise<{ id: string; name: string; balance: number; delta: number }> {
    const account = await this.row(nameOrId);
    const unlimited = () =>
      new ServiceError('conflict', `the account ${account.name} is unlimited: it has no balance to change`);
    if (account.credits === null) throw unlimited();
    const balance = await this.db.transaction().execute(async (trx) => {
      const after = await changeBalance(trx, {
        accountId: account.id,
        kind: delta > 0 ? 'topup' : 'adjustment',
        delta,
        note: note ?? null,
        actor: actor.name,
      });
      if (after !== undefined)
        await audit(trx, actor, subject.action, subject.name || account.name, {
          id: account.id,
          delta,
          note,
        });
      return after;
    });
    if (balance === undefined) {
      const now = (await this.row(account.id)).credits;
      if (now === null) throw unlimited();
      throw new ServiceError(
        'conflict',
        `delta: the balance is ${Number(now)}; a deduction of ${-delta} would take it below zero`,
        { details: [{ field: 'delta', rule: `must not take the balance (${Number(now)}) below zero` }] },
      );
    }
    return { id: account.id, name: account.name, balance, delta };
  }
}

/**
 * Unlimited: the balance leaves through an adjustment entry, so the ledger still sums to what
 * the account held (0) while it has no balance. Limited again: it starts from 0, to be topped up.
 */
export async function setUnlimited(
  trx: Kysely<Database>,
  accountId: string,
  unlimited: boolean,
  actor: Actor,
): Promise<void> {
  const row = await trx
    .selectFrom('accounts')
    .select('credits')
    .where('id', '=', accountId)
    .executeTakeFirst();
  const balance = row?.credits === null || row?.credits === undefined ? null : Number(row.credits);
  if (unlimited && balance !== null) {
    await trx.updateTable('accounts').set({ credits: null }).where('id', '=', accountId).execute();
    if (balance !== 0) {
      const change = {
        accountId,
        kind: 'adjustment',
        delta: -balance,
        note: 'made unlimited',
        actor: actor.name,
      } as const;
      await trx.insertInto('ledger').values(entryOf(change, 0)).execute();
    }
  } else if (!unlimited && balance === null) {
    await trx.updateTable('accounts').set({ credits: 0 }).where('id', '=', accountId).execute();
  }
}
