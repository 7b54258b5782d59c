/**
 * The Standard Webhooks v1 signature of a delivery: HMAC-SHA256 keyed with the secret's bytes
 * (the base64 after `whsec_`) over `{id}.{unix seconds}.{body}`, in base64, as `v1,…`. Computed
 * with node:crypto: the reference package hashes in JavaScript, which cost more than the rest of
 * signing a callback. Receivers check it with any Standard Webhooks library.
 */
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

export function webhookSignature(secret: string, id: string, seconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64')}`;
}
