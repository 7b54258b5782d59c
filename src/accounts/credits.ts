/**
 * Credit spending. Taking credits is one conditional UPDATE, so concurrent requests can never
 * drive a balance below zero; a failed request gives them back. A token with no balance (null)
 * is unlimited. `takeCredits` and `giveCredits` run on the database or inside a transaction (a
 * task's submission and its terminal move charge and refund together with their own writes).
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../store/database.js';
import type { Database } from '../store/tables.js';
import { ServiceError } from '../errors.js';

/** Who pays: an unlimited token (no balance, fixed at creation) is never written to. */
export interface Payer {
  id: string;
  credits: number | null;
}

export async function takeCredits(db: Kysely<Database>, payer: Payer, amount: number): Promise<void> {
  // Writing the token row would serialise every request of the token on its row lock.
  if (amount <= 0 || payer.credits === null) return;
  const tokenId = payer.id;
  const result = await db
    .updateTable('tokens')
    .set({ credits: sql<number | null>`case when credits is null then null else credits - ${amount} end` })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('credits', 'is', null), eb('credits', '>=', amount)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    throw new ServiceError('used_up', `not enough credits: this request costs ${amount}`);
  }
}

/** Adds credits to a limited balance (a refund or a top-up); unlimited stays unlimited. */
export async function giveCredits(db: Kysely<Database>, tokenId: string, amount: number): Promise<void> {
  if (amount <= 0) return;
  await db
    .updateTable('tokens')
    .set({ credits: sql<number | null>`credits + ${amount}` })
    .where('id', '=', tokenId)
    .where('credits', 'is not', null)
    .execute();
}

export interface Reservation {
  readonly amount: number;
  /** Keeps `cost` (at most the amount held) and returns the rest; once. */
  settle(cost: number): Promise<void>;
  /** Returns the credits; safe to call more than once. */
  refund(): Promise<void>;
}

export class Credits {
  constructor(private readonly db: Db) {}

  /** Takes the credits of a synchronous request, to be refunded if it fails. */
  async reserve(payer: Payer, amount: number): Promise<Reservation> {
    // An unlimited balance has nothing to take or give back: no write at all.
    if (payer.credits === null || amount <= 0)
      return { amount: 0, settle: async () => {}, refund: async () => {} };
    await takeCredits(this.db, payer, amount);
    const tokenId = payer.id;
    let done = false;
    const giveBack = async (credits: number) => {
      if (done) return;
      done = true;
      await giveCredits(this.db, tokenId, credits);
    };
    return {
      amount,
      settle: (cost) => giveBack(amount - Math.min(cost, amount)),
      refund: () => giveBack(amount),
    };
  }
}
