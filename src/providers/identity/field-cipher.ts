/**
 * The `encryption` member: sensitive members carried as AES-256-GCM ciphertext under the token's
 * field key. An item lists the members it covers (`encrypt_list`), one `iv` for all of them, one
 * tag per member (`tag_list`, same order) and the key version (`ciphertext_blob`). GCM must never
 * see one nonce twice under one key, so the k-th member (from 0) is sealed with the nonce
 * `iv XOR k` (k as a 96-bit big-endian number), as TLS 1.3 derives its record nonces. Values and
 * tags are base64.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { FieldKey } from './field-keys.js';

export const ALGORITHM = 'AES-256-GCM';
const NONCE_BYTES = 12;

export interface EncryptionItem {
  iv: string;
  tag_list: string[];
  algorithm: string;
  encrypt_list: string[];
  ciphertext_blob: number;
}

function nonceFor(iv: Buffer, index: number): Buffer {
  const nonce = Buffer.from(iv);
  nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ index) >>> 0, 8);
  return nonce;
}

/** The key a request names, or undefined when the token has no such version. */
export type KeyOfVersion = (version: number) => Promise<FieldKey | undefined>;

/**
 * The request body with each encrypted member replaced by its plain text. Everything a client can
 * get wrong is a 400 naming the member: an unknown algorithm or version, a malformed iv, a tag
 * missing, or a value that does not open (wrong key, altered, or not sealed as described).
 */
export async function openRequest(
  body: Record<string, unknown>,
  keyOf: KeyOfVersion,
): Promise<Record<string, unknown>> {
  const items = (body.encryption as EncryptionItem[] | undefined) ?? [];
  const plain = { ...body };
  delete plain.encryption;
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    const at = `encryption[${i}]`;
    if (item.algorithm.toUpperCase() !== ALGORITHM) {
      throw badRequest([{ field: `${at}.algorithm`, rule: `must be ${ALGORITHM}` }]);
    }
    const iv = Buffer.from(item.iv, 'base64');
    if (iv.length !== NONCE_BYTES) {
      throw badRequest([{ field: `${at}.iv`, rule: `must be ${NONCE_BYTES} bytes in base64` }]);
    }
    const tags = item.tag_list ?? [];
    if (tags.length !== item.encrypt_list.length) {
      throw badRequest([
        { field: `${at}.tag_list`, rule: 'must hold one tag per member of encrypt_list, in its order' },
      ]);
    }
    if (!Number.isInteger(item.ciphertext_blob)) {
      throw badRequest([{ field: `${at}.ciphertext_blob`, rule: 'must be the key version, a whole number' }]);
    }
    const key = await keyOf(item.ciphertext_blob);
    if (!key) {
      throw badRequest([
        {
          field: `${at}.ciphertext_blob`,
          rule: `names key version ${item.ciphertext_blob}, which this token does not have`,
        },
      ]);
    }
    for (const [k, field] of item.encrypt_list.entries()) {
      if (seen.has(field)) {
        throw badRequest([{ field: `${at}.encrypt_list`, rule: `lists ${field} a second time` }]);
      }
      seen.add(field);
      const value = body[field];
      if (typeof value !== 'string') {
        throw badRequest([{ field, rule: 'is listed in encrypt_list but not sent' }]);
      }
      plain[field] = openValue(key.key, nonceFor(iv, k), value, tags[k]!, field);
    }
  }
  return plain;
}

function openValue(key: Buffer, nonce: Buffer, value: string, tag: string, field: string): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce).setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw badRequest([
      { field, rule: 'does not decrypt with the named key, iv and tag (AES-256-GCM, nonce iv XOR index)' },
    ]);
  }
}

/** Seals the named members of an answer (those present and not empty) and describes how. */
export function sealAnswer<T extends Record<string, unknown>>(
  answer: T,
  members: readonly string[],
  key: FieldKey,
): T & { encryption?: EncryptionItem[] } {
  const present = members.filter((m) => typeof answer[m] === 'string' && answer[m] !== '');
  if (present.length === 0) return answer;
  const iv = randomBytes(NONCE_BYTES);
  const sealed: Record<string, unknown> = { ...answer };
  const tags: string[] = [];
  for (const [k, member] of present.entries()) {
    const cipher = createCipheriv('aes-256-gcm', key.key, nonceFor(iv, k));
    const body = Buffer.concat([cipher.update(String(answer[member]), 'utf8'), cipher.final()]);
    sealed[member] = body.toString('base64');
    tags.push(cipher.getAuthTag().toString('base64'));
  }
  const item: EncryptionItem = {
    iv: iv.toString('base64'),
    tag_list: tags,
    algorithm: ALGORITHM,
    encrypt_list: present,
    ciphertext_blob: key.version,
  };
  return { ...(sealed as T), encryption: [item] };
}
