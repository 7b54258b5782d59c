/**
 * The client's side of the `encryption` member, written from docs/identity.md alone: AES-256-GCM
 * with the token's field key, the k-th member of encrypt_list sealed with the nonce iv XOR k.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

function nonce(iv: Buffer, k: number): Buffer {
  const n = Buffer.from(iv);
  n.writeUInt32BE((n.readUInt32BE(8) ^ k) >>> 0, 8);
  return n;
}

export function encryptMembers(
  members: Record<string, string>,
  key: Buffer,
  version: number,
): { values: Record<string, string>; encryption: Record<string, unknown>[] } {
  const iv = randomBytes(12);
  const values: Record<string, string> = {};
  const tags: string[] = [];
  Object.entries(members).forEach(([field, plain], k) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(iv, k));
    values[field] = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
    tags.push(cipher.getAuthTag().toString('base64'));
  });
  return {
    values,
    encryption: [
      {
        encrypt_list: Object.keys(members),
        algorithm: 'AES-256-GCM',
        iv: iv.toString('base64'),
        tag_list: tags,
        ciphertext_blob: version,
      },
    ],
  };
}

/** The plain text of each sealed member of an answer. */
export function decryptAnswer(answer: Record<string, unknown>, key: Buffer): Record<string, string> {
  const [item] = answer.encryption as { encrypt_list: string[]; iv: string; tag_list: string[] }[];
  const iv = Buffer.from(item!.iv, 'base64');
  const out: Record<string, string> = {};
  item!.encrypt_list.forEach((field, k) => {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(iv, k));
    decipher.setAuthTag(Buffer.from(item!.tag_list[k]!, 'base64'));
    out[field] = Buffer.concat([
      decipher.update(Buffer.from(String(answer[field]), 'base64')),
      decipher.final(),
    ]).toString('utf8');
  });
  return out;
}
