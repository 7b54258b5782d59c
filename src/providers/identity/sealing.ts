/**
 * Sealing at rest with AES-256-GCM: a fresh 96-bit nonce per seal, the tag checked on opening,
 * and a context string bound in as associated data, so a sealed value copied to another row or
 * purpose fails to open instead of being read as something else. Each purpose has its own key,
 * derived from the identity key with HKDF.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export type Purpose = 'registry' | 'registry-lookup' | 'field-keys';

export function purposeKey(identityKey: Buffer, purpose: Purpose): Buffer {
  return Buffer.from(hkdfSync('sha256', identityKey, Buffer.alloc(0), `switchyard identity ${purpose}`, 32));
}

/** A sealed value that does not open: wrong key, wrong context, or altered. */
export class SealBroken extends Error {}

/** base64 of nonce ‖ tag ‖ ciphertext. */
export function seal(key: Buffer, plaintext: Buffer, context: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
}

export function unseal(key: Buffer, sealed: string, context: string): Buffer {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SealBroken('sealed value is truncated');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES))
      .setAAD(Buffer.from(context))
      .setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealBroken('sealed value does not open with this key');
  }
}

/** A keyed hash to find a row by a secret value without storing the value. */
export function lookupHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}
