/**
 * Making an account's row: its name unique among accounts (the database's index decides between
 * two nodes), its opening balance written to the ledger in the same transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/tables.js';
import { ServiceError } from '../errors.js';
import { entryOf } from './ledger.js';
import type { BudgetRule } from './budgets.js';
import { isUniqueViolation } from '../store/unique-violation.js';

export interface NewAccount {
  id: string;
  name: string;
  /** The opening balance; null for unlimited. */
  credits: number | null;
  budgets?: BudgetRule[] | null;
  lowBalance?: number | null;
  /**
   * The account of a token made without one: named like it, or `{name}-{id's first 8}`, or
   * `{name}-{id}`, the first that is free.
   */
  fallbackName?: boolean;
  /** The token the account was made with, named in its opening entry. */
  openedBy?: string;
  actor?: string;
}

export async function openAccount(trx: Kysely<Database>, spec: NewAccount): Promise<string> {
  const row = {
    id: spec.id,
    credits: spec.credits,
    budgets: spec.budgets?.length ? JSON.stringify(spec.budgets) : null,
    low_balance: spec.lowBalance ?? null,
    created_at: Date.now(),
  };
  let name: string | undefined;
  if (spec.fallbackName) {
    // Each name is tried by an insert that skips a taken one, never by one that fails: a failed
    // statement would end a PostgreSQL transaction, and two nodes making one name must not clash.
    for (const candidate of [spec.name, `${spec.name}-${spec.id.slice(0, 8)}`, `${spec.name}-${spec.id}`]) {
      const made = await trx
        .insertInto('accounts')
        .values({ ...row, name: candidate })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (made) {
        name = candidate;
        break;
      }
    }
    if (name === undefined)
      throw new ServiceError('conflict', `name: an account is already called ${spec.name}`);
  } else {
    name = spec.name;
    await trx
      .insertInto('accounts')
      .values({ ...row, name })
      .execute()
      .catch((error: unknown) => {
        if (isUniqueViolation(error))
          throw new ServiceError('conflict', `name: an account is already called ${name}`);
        throw error;
      });
  }
  // The ledger opens with the balance given at creation.
  if (spec.credits !== null && spec.credits > 0) {
    const change = {
      accountId: spec.id,
      ...(spec.openedBy ? { tokenId: spec.openedBy } : {}),
      kind: 'topup',
      delta: spec.credits,
      note: 'balance at creation',
      ...(spec.actor ? { actor: spec.actor } : {}),
    } as const;
    await trx.insertInto('ledger').values(entryOf(change, spec.credits)).execute();
  }
  return name;
}
