/**
 * Each token's keys for the `encryption` member: random 32-byte AES-256-GCM keys, numbered from 1
 * (the number travels as `ciphertext_blob`). A rotation adds a version; older versions stay
 * readable so that requests a client encrypted before the rotation still open, while answers use
 * the newest. Keys are kept sealed under the identity key.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../store/database.js';
import { purposeKey, seal, unseal } from './sealing.js';

export interface FieldKey {
  version: number;
  key: Buffer;
}

export class FieldKeys {
  private readonly sealKey: Buffer;

  constructor(
    private readonly db: Db,
    identityKey: Buffer,
  ) {
    this.sealKey = purposeKey(identityKey, 'field-keys');
  }

  private context(tokenId: string, version: number): string {
    return `field_keys:${tokenId}:${version}`;
  }

  /** The newest key of a token, or undefined when it has none (its answers are not encrypted). */
  async newest(tokenId: string): Promise<FieldKey | undefined> {
    const row = await this.db
      .selectFrom('field_keys')
      .select(['version', 'sealed'])
      .where('token_id', '=', tokenId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && this.opened(tokenId, row);
  }

  async version(tokenId: string, version: number): Promise<FieldKey | undefined> {
    const row = await this.db
      .selectFrom('field_keys')
      .select(['version', 'sealed'])
      .where('token_id', '=', tokenId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row && this.opened(tokenId, row);
  }

  /** Adds the next version (1 for a token without keys) and returns it. */
  async rotate(tokenId: string): Promise<FieldKey> {
    const newest = await this.newest(tokenId);
    const version = (newest?.version ?? 0) + 1;
    const key = randomBytes(32);
    await this.db
      .insertInto('field_keys')
      .values({
        token_id: tokenId,
        version,
        sealed: seal(this.sealKey, key, this.context(tokenId, version)),
        created_at: Date.now(),
      })
      .execute();
    return { version, key };
  }

  private opened(tokenId: string, row: { version: number; sealed: string }): FieldKey {
    const version = Number(row.version);
    return { version, key: unseal(this.sealKey, row.sealed, this.context(tokenId, version)) };
  }
}
