/**
 * The callbacks' signature against the reference Standard Webhooks package: what it computes for
 * the same message, and what its verifier accepts; a changed body, id or time is refused.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { webhookSignature } from '../../src/outbox/webhook-signature.js';

const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;

describe('webhookSignature', () => {
  it('signs as the reference package does, for secrets and bodies of every size', () => {
    for (const [bytes, size] of [
      [18, 0],
      [24, 1],
      [24, 900],
      [32, 70_000],
      [64, 3],
    ] as const) {
      const secret = secretOf(bytes);
      const body = JSON.stringify({ text: 'é✓'.repeat(size) });
      const id = `msg_${randomBytes(8).toString('hex')}`;
      const seconds = Math.floor(Date.now() / 1000);
      const reference = new Webhook(secret).sign(id, new Date(seconds * 1000), body);
      expect(webhookSignature(secret, id, seconds, body)).toBe(reference);
    }
  });

  it('is accepted by the reference verifier, and refused once anything signed changed', () => {
    const secret = secretOf(24);
    const body = '{"task_id":"t1","state":"succeeded"}';
    const seconds = Math.floor(Date.now() / 1000);
    const headers = (id: string, at: number, signature: string) => ({
      'webhook-id': id,
      'webhook-timestamp': String(at),
      'webhook-signature': signature,
    });
    const signature = webhookSignature(secret, 'msg_1', seconds, body);
    const verifier = new Webhook(secret);
    expect(verifier.verify(body, headers('msg_1', seconds, signature))).toEqual(JSON.parse(body));
    expect(() => verifier.verify(body.replace('t1', 't2'), headers('msg_1', seconds, signature))).toThrow();
    expect(() => verifier.verify(body, headers('msg_2', seconds, signature))).toThrow();
    expect(() => verifier.verify(body, headers('msg_1', seconds - 1, signature))).toThrow();
    expect(() => new Webhook(secretOf(24)).verify(body, headers('msg_1', seconds, signature))).toThrow();
  });
});
