/**
 * Redemption codes: an admin makes a batch of codes, each worth `credits` and usable `uses`
 * times until it expires; a client redeems one onto its balance (ledger kind `redeem`, its note
 * naming the batch). A code's text is shown once, when its batch is made, and kept as a hash.
 * A redemption is one transaction: the code's uses left taken by one conditional UPDATE (so that
 * concurrent redemptions never use a code more often than it allows), then the balance changed
 * with its ledger entry; a balance that cannot take it (an unlimited account) rolls the use back.
 * Unknown, expired, disabled and used-up codes are refused alike, so that codes cannot be probed.
 */
import { randomInt } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../store/database.js';
import type { CodeBatchTable } from '../store/tables.js';
import { badRequest, ServiceError } from '../errors.js';
import { changeBalance } from './ledger.js';
import { recordId } from './record-id.js';
import { hashOf } from './tokens.js';

/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 20 characters of 32: 100 bits, beyond guessing. */
const CODE_CHARACTERS = 20;
const PREFIX = 'SYC';
/** Codes per INSERT statement: far below every driver's limit on bound values. */
const ROWS_PER_INSERT = 500;

export interface NewBatch {
  credits: number;
  count: number;
  /** Uses per code. */
  uses: number;
  expiresAt: number | null;
  note: string | null;
}

/** A code as printed: `SYC-XXXXX-XXXXX-XXXXX-XXXXX`. */
function newCode(): string {
  const characters = Array.from({ length: CODE_CHARACTERS }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  const groups = Array.from({ length: CODE_CHARACTERS / 5 }, (_, i) =>
    characters.slice(5 * i, 5 * i + 5).join(''),
  );
  return [PREFIX, ...groups].join('-');
}

/** What a code's hash is taken of: its characters, upper case, without the prefix, spaces or dashes. */
function canonical(code: string): string {
  const letters = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return letters.startsWith(PREFIX) ? letters.slice(PREFIX.length) : letters;
}

/** Makes a batch; answers its id and its codes, whose text is kept nowhere else. */
export async function makeBatch(
  db: Db,
  spec: NewBatch,
  createdBy: string,
): Promise<{ batch: string; codes: string[] }> {
  const now = Date.now();
  const batch = recordId(now);
  const codes = Array.from({ length: spec.count }, newCode);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('code_batches')
      .values({
        id: batch,
        credits: spec.credits,
        count: spec.count,
        uses_per_code: spec.uses,
        expires_at: spec.expiresAt,
        note: spec.note,
        created_by: createdBy,
        created_at: now,
        disabled_at: null,
      })
      .execute();
    for (let i = 0; i < codes.length; i += ROWS_PER_INSERT) {
      const rows = codes
        .slice(i, i + ROWS_PER_INSERT)
        .map((code) => ({ code_hash: hashOf(canonical(code)), batch_id: batch, uses_left: spec.uses }));
      await trx.insertInto('codes').values(rows).execute();
    }
  });
  return { batch, codes };
}

export interface Batch extends Selectable<CodeBatchTable> {
  /** Uses taken so far, over all the batch's codes. */
  used: number;
}

/** The batches, newest first (one when `id` is given), with the uses taken of each. */
export async function batches(db: Db, id?: string): Promise<Batch[]> {
  let select = db
    .selectFrom('code_batches')
    .selectAll('code_batches')
    .select(
      sql<number>`(select coalesce(sum(code_batches.uses_per_code - codes.uses_left), 0) from codes where codes.batch_id = code_batches.id)`.as(
        'used',
      ),
    )
    .orderBy('id', 'desc');
  if (id !== undefined) select = select.where('id', '=', id);
  return (await select.execute()).map((row) => ({ ...row, used: Number(row.used) }));
}

/** Disables what is left of a batch; answers it, or undefined when there is no such batch. */
export async function disableBatch(db: Db, id: string): Promise<Batch | undefined> {
  await db
    .updateTable('code_batches')
    .set({ disabled_at: Date.now() })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .execute();
  return (await batches(db, id))[0];
}

const notRedeemable = () =>
  badRequest([{ field: 'code', rule: 'is not a code that can be redeemed: unknown, expired or used up' }]);

/** Redeems `code` onto the balance of the token's account; answers what it added and the balance after it. */
export async function redeem(
  db: Db,
  token: { id: string; accountId: string },
  code: string,
  traceId: string,
): Promise<{ credits: number; balance: number }> {
  const hash = hashOf(canonical(code));
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const batch = await trx
      .selectFrom('codes')
      .innerJoin('code_batches', 'code_batches.id', 'codes.batch_id')
      .select(['code_batches.id', 'code_batches.credits'])
      .where('codes.code_hash', '=', hash)
      .where('code_batches.disabled_at', 'is', null)
      .where((eb) =>
        eb.or([eb('code_batches.expires_at', 'is', null), eb('code_batches.expires_at', '>', now)]),
      )
      .executeTakeFirst();
    if (!batch) throw notRedeemable();
    const used = await trx
      .updateTable('codes')
      .set({ uses_left: sql<number>`uses_left - 1` })
      .where('code_hash', '=', hash)
      .where('uses_left', '>', 0)
      .returning('uses_left')
      .executeTakeFirst();
    if (!used) throw notRedeemable();
    const credits = Number(batch.credits);
    const balance = await changeBalance(trx, {
      accountId: token.accountId,
      tokenId: token.id,
      kind: 'redeem',
      delta: credits,
      note: `code batch ${batch.id}`,
      traceId,
    });
    if (balance === undefined)
      throw new ServiceError(
        'conflict',
        "this token's account is unlimited: it has no balance to redeem a code onto",
      );
    return { credits, balance };
  });
}
