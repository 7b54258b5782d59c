/**
 * The local verification source: the reference record (name, ID number, portrait) of each
 * identity an operator enrolled. Rows are found by a keyed hash of the number and hold the record
 * sealed, so the database alone reveals neither names, numbers nor faces.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../store/database.js';
import type { Database } from '../../store/tables.js';
import { lookupHash, purposeKey, seal, unseal } from './sealing.js';

export interface IdentityRecord {
  name: string;
  /** 18 characters, upper-case X. */
  id_number: string;
  /** The reference portrait as PNG, when one was enrolled. */
  portrait?: Buffer;
}

export interface EnrolledIdentity extends IdentityRecord {
  enrolled_at: number;
  updated_at: number;
}

/** More writes of an identity's change, in its transaction (an admin's change: its audit record). */
export type Within = (trx: Kysely<Database>) => Promise<void>;

/** Where the reference record of an identity comes from. */
export interface VerificationSource {
  find(idNumber: string): Promise<IdentityRecord | undefined>;
}

interface SealedRecord {
  name: string;
  id_number: string;
  portrait?: string;
}

export class IdentityRegistry implements VerificationSource {
  private readonly sealKey: Buffer;
  private readonly lookupKey: Buffer;

  constructor(
    private readonly db: Db,
    identityKey: Buffer,
  ) {
    this.sealKey = purposeKey(identityKey, 'registry');
    this.lookupKey = purposeKey(identityKey, 'registry-lookup');
  }

  private lookupOf(idNumber: string): string {
    return lookupHash(this.lookupKey, idNumber.toUpperCase());
  }

  private sealed(record: IdentityRecord, lookup: string): string {
    const plain: SealedRecord = {
      name: record.name,
      id_number: record.id_number.toUpperCase(),
      ...(record.portrait ? { portrait: record.portrait.toString('base64') } : {}),
    };
    return seal(this.sealKey, Buffer.from(JSON.stringify(plain)), `identities:${lookup}`);
  }

  private opened(row: { lookup: string; sealed: string }): IdentityRecord {
    const plain = JSON.parse(
      unseal(this.sealKey, row.sealed, `identities:${row.lookup}`).toString('utf8'),
    ) as SealedRecord;
    return {
      name: plain.name,
      id_number: plain.id_number,
      ...(plain.portrait ? { portrait: Buffer.from(plain.portrait, 'base64') } : {}),
    };
  }

  /** The identity's id outside this class: the keyed hash its row is found by. */
  idOf(idNumber: string): string {
    return this.lookupOf(idNumber);
  }

  /** The number of the identity with that id, for the admin API's edits by id. */
  async numberOf(id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('identities')
      .select(['lookup', 'sealed'])
      .where('lookup', '=', id)
      .executeTakeFirst();
    return row ? this.opened(row).id_number : undefined;
  }

  /**
   * Runs a write of one identity; what `within` writes is in the same transaction, and only where
   * the write changed a row. Answers whether it did.
   */
  private async written(write: (db: Db) => Promise<number>, within?: Within): Promise<boolean> {
    const changed = within
      ? await this.db.transaction().execute(async (trx) => {
          const count = await write(trx);
          if (count > 0) await within(trx);
          return count;
        })
      : await write(this.db);
    return changed === 1;
  }

  /** Adds an identity; false when that number is already enrolled. */
  async enroll(record: IdentityRecord, within?: Within): Promise<boolean> {
    const lookup = this.lookupOf(record.id_number);
    const now = Date.now();
    return this.written(async (db) => {
      const result = await db
        .insertInto('identities')
        .values({ lookup, sealed: this.sealed(record, lookup), created_at: now, updated_at: now })
        .onConflict((c) => c.column('lookup').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0);
    }, within);
  }

  /** Changes the name or portrait of an enrolled identity; false when it is not enrolled. */
  async update(
    idNumber: string,
    change: { name?: string; portrait?: Buffer | null },
    within?: Within,
  ): Promise<boolean> {
    const current = await this.find(idNumber);
    if (!current) return false;
    const next: IdentityRecord = { ...current, ...(change.name ? { name: change.name } : {}) };
    if (change.portrait === null) delete next.portrait;
    else if (change.portrait) next.portrait = change.portrait;
    const lookup = this.lookupOf(idNumber);
    return this.written(async (db) => {
      const result = await db
        .updateTable('identities')
        .set({ sealed: this.sealed(next, lookup), updated_at: Date.now() })
        .where('lookup', '=', lookup)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    }, within);
  }

  async remove(idNumber: string, within?: Within): Promise<boolean> {
    return this.written(async (db) => {
      const result = await db
        .deleteFrom('identities')
        .where('lookup', '=', this.lookupOf(idNumber))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    }, within);
  }

  async find(idNumber: string): Promise<IdentityRecord | undefined> {
    const row = await this.db
      .selectFrom('identities')
      .select(['lookup', 'sealed'])
      .where('lookup', '=', this.lookupOf(idNumber))
      .executeTakeFirst();
    return row ? this.opened(row) : undefined;
  }

  /** Every enrolled identity, oldest first (for the operator's `identity list`). */
  async list(): Promise<EnrolledIdentity[]> {
    const rows = await this.db
      .selectFrom('identities')
      .select(['lookup', 'sealed', 'created_at', 'updated_at'])
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      ...this.opened(row),
      enrolled_at: Number(row.created_at),
      updated_at: Number(row.updated_at),
    }));
  }
}
