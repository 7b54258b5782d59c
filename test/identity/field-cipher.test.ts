/** The `encryption` member: what a client seals by the documented scheme opens, and back. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openRequest, sealAnswer } from '../../src/providers/identity/field-cipher.js';
import { ServiceError } from '../../src/errors.js';
import { decryptAnswer, encryptMembers } from './client-crypto.js';

const key = { version: 3, key: randomBytes(32) };
const keyOf = async (version: number) => (version === key.version ? key : undefined);

async function violation(body: Record<string, unknown>): Promise<{ field: string; rule: string }> {
  try {
    await openRequest(body, keyOf);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    const details = (error as ServiceError).options.details as { field: string; rule: string }[];
    return details[0]!;
  }
  throw new Error('the request opened');
}

describe('encryption member', () => {
  const plain = { name: '欧阳娜娜', id_card: '11010519491231002X' };

  it('opens members a client sealed, each under its own nonce', async () => {
    const { values, encryption } = encryptMembers(plain, key.key, 3);
    expect(values.name).not.toBe(values.id_card);
    const opened = await openRequest({ ...values, image_url: 'data:,', encryption }, keyOf);
    expect(opened).toEqual({ ...plain, image_url: 'data:,' });
  });

  it('names what is wrong: algorithm, version, iv, tags, altered values, swapped members', async () => {
    const sealed = () => encryptMembers(plain, key.key, 3);
    const item = (change: Record<string, unknown>) => {
      const { values, encryption } = sealed();
      return { ...values, encryption: [{ ...encryption[0], ...change }] };
    };
    expect(await violation(item({ algorithm: 'AES-256-CBC' }))).toEqual({
      field: 'encryption[0].algorithm',
      rule: 'must be AES-256-GCM',
    });
    expect((await violation(item({ ciphertext_blob: 4 }))).field).toBe('encryption[0].ciphertext_blob');
    expect((await violation(item({ iv: 'c2hvcnQ=' }))).field).toBe('encryption[0].iv');
    expect((await violation(item({ tag_list: ['AAAA'] }))).field).toBe('encryption[0].tag_list');

    const { values, encryption } = sealed();
    const altered = Buffer.from(values.name!, 'base64');
    altered[0]! ^= 1;
    expect((await violation({ ...values, name: altered.toString('base64'), encryption })).field).toBe('name');
    // The ciphertexts of the two members swapped: each nonce now meets the other's value.
    expect((await violation({ name: values.id_card, id_card: values.name, encryption })).field).toBe('name');
  });

  it('seals the members of an answer so that a client opens them', () => {
    const answer = { name: '欧阳娜娜', id_num: '11010519491231002X', birth: '', result: 'success' };
    const sealed = sealAnswer(answer, ['name', 'id_num', 'birth'], key);
    expect(sealed.result).toBe('success');
    expect(sealed.name).not.toBe(answer.name);
    expect(sealed.encryption?.[0]).toMatchObject({
      encrypt_list: ['name', 'id_num'],
      algorithm: 'AES-256-GCM',
      ciphertext_blob: 3,
    });
    expect(decryptAnswer(sealed, key.key)).toEqual({ name: answer.name, id_num: answer.id_num });
  });
});
