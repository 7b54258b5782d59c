/**
 * Credit spending. A reservation takes the credits in one conditional UPDATE, so concurrent
 * requests can never drive a balance below zero; a failed request gives them back. A token with
 * no balance (null) is unlimited.
 */
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import { ServiceError } from '../errors.js';

export interface Reservation {
  readonly amount: number;
  /** Returns the credits; safe to call more than once. */
  refund(): Promise<void>;
}

const NOTHING: Reservation = { amount: 0, refund: async () => {} };

export class Credits {
  constructor(private readonly db: Db) {}

  async reserve(tokenId: string, amount: number): Promise<Reservation> {
    if (amount <= 0) return NOTHING;
    const result = await this.db
      .updateTable('tokens')
      .set({ credits: sql<number | null>`case when credits is null then null else credits - ${amount} end` })
      .where('id', '=', tokenId)
      .where((eb) => eb.or([eb('credits', 'is', null), eb('credits', '>=', amount)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      throw new ServiceError('used_up', `not enough credits: this request costs ${amount}`);
    }
    let refunded = false;
    return {
      amount,
      refund: async () => {
        if (refunded) return;
        refunded = true;
        await this.give(tokenId, amount);
      },
    };
  }

  /** Adds credits to a limited balance (a refund or a top-up); unlimited stays unlimited. */
  async give(tokenId: string, amount: number): Promise<void> {
    await this.db
      .updateTable('tokens')
      .set({ credits: sql<number | null>`credits + ${amount}` })
      .where('id', '=', tokenId)
      .where('credits', 'is not', null)
      .execute();
  }
}
