/**
 * Failed authentication per client address, over HTTP: past ten failures in a minute, an address's
 * requests with a credential are answered 429 with Retry-After, its token not looked up, while
 * other addresses go on as before; failed admin authentication, console sign-in and sign-out are
 * in the audit with the address, never the credential. Addresses come from X-Forwarded-For,
 * which this server believes from its trusted proxy (loopback).
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { ADDRESSES, FailedSignIns, LIMIT } from '../../src/http/failed-sign-ins.js';

const BASE = '/admin/api/v1';
let server: TestServer;
let client: string;
let admin: string;

beforeAll(async () => {
  server = await startServer({ trust_proxy: ['127.0.0.1'] });
  client = await server.token({ name: 'acme' });
  admin = await server.token({ name: 'ops', role: 'admin' });
});
afterAll(() => server?.close());

const search = (token: string, address: string) =>
  server.post('/serp/web', { query: 'q' }, token, { 'x-forwarded-for': address });

type AuditRow = { actor: string; actor_id: string | null; action: string; detail: Record<string, unknown> };

async function auditRows(): Promise<AuditRow[]> {
  const answer = await fetch(`${server.url}${BASE}/audit?limit=100`, {
    headers: { authorization: `Bearer ${admin}`, 'x-forwarded-for': '198.51.100.1' },
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { rows: AuditRow[] }).rows;
}

it('refuses an address that keeps failing, before looking its tokens up, and no other', async () => {
  const guesser = '203.0.113.7';
  for (let i = 0; i < LIMIT; i++) expect((await search(`sy_guess${i}`, guesser)).status).toBe(401);
  const refused = await search('sy_one-more', guesser);
  expect(refused.status).toBe(429);
  expect(refused.body.error).toMatchObject({ code: 'too_many_requests' });
  const wait = Number(refused.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
  // Refused whatever it sends while the minute lasts, even a good token.
  expect((await search(client, guesser)).status).toBe(429);
  // Another address, and a request without a credential from the refused one, go on.
  expect((await search(client, '203.0.113.8')).status).not.toBe(429);
  const health = await fetch(`${server.url}/healthz`, { headers: { 'x-forwarded-for': guesser } });
  expect(health.status).toBe(200);
});

const signInFrom = (token: string, address: string) =>
  fetch(`${server.url}${BASE}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, 'x-forwarded-for': address },
    body: JSON.stringify({ token }),
  });

it('refuses console sign-ins from an address whose sign-ins keep failing, and its admin requests', async () => {
  const guesser = '203.0.113.20';
  for (let i = 0; i < LIMIT; i++) expect((await signInFrom(`sy_guess${i}`, guesser)).status).toBe(401);
  const refused = await signInFrom(admin, guesser);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  const listing = await fetch(`${server.url}${BASE}/tokens`, {
    headers: { authorization: `Bearer ${admin}`, 'x-forwarded-for': guesser },
  });
  expect(listing.status).toBe(429);
  expect((await signInFrom(admin, '203.0.113.21')).status).toBe(200);
});

it('never counts or slows requests whose credential holds', async () => {
  const office = '203.0.113.30';
  const account = () =>
    fetch(`${server.url}/v1/account`, {
      headers: { authorization: `Bearer ${client}`, 'x-forwarded-for': office },
    });
  for (let i = 0; i < 2 * LIMIT; i++) expect((await account()).status).toBe(200);
  // One failure short of the limit, after all those successes: the address is still served.
  for (let i = 0; i < LIMIT - 1; i++) expect((await search(`sy_typo${i}`, office)).status).toBe(401);
  for (let i = 0; i < LIMIT; i++) expect((await account()).status).toBe(200);
});

it('forgets an address a minute after its first failure, and keeps at most ADDRESSES of them', () => {
  const failures = new FailedSignIns();
  const start = 1_000_000;
  expect(failures.quiet(start)).toBe(true);
  for (let i = 0; i < LIMIT; i++) failures.failed('192.0.2.1', start + i);
  expect(failures.refusal('192.0.2.1', start + LIMIT)).toBeCloseTo(60 - LIMIT / 1000);
  expect(failures.quiet(start + 59_999)).toBe(false);
  expect(failures.quiet(start + 60_000)).toBe(true);
  expect(failures.refusal('192.0.2.1', start + 60_000)).toBeUndefined();

  for (let i = 0; i < LIMIT; i++) failures.failed('192.0.2.1', start);
  for (let i = 0; i < ADDRESSES; i++)
    failures.failed(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, start + 1);
  // The oldest window made room for the newest.
  expect(failures.refusal('192.0.2.1', start + 2)).toBeUndefined();
  failures.failed('192.0.2.2', start + 60_001);
  expect(failures.quiet(start + 60_002)).toBe(false);
  expect(failures.quiet(start + 120_001)).toBe(true);
});

it('audits failed admin authentication, console sign-in and sign-out with the address and the token id, never the secret', async () => {
  const wrong = 'sy_not-a-real-admin-token';
  const failed = await fetch(`${server.url}${BASE}/tokens`, {
    headers: { authorization: `Bearer ${wrong}`, 'x-forwarded-for': '192.0.2.10' },
  });
  expect(failed.status).toBe(401);
  const signIn = await fetch(`${server.url}${BASE}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, 'x-forwarded-for': '192.0.2.11' },
    body: JSON.stringify({ token: admin }),
  });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const signOut = await fetch(`${server.url}${BASE}/session`, {
    method: 'DELETE',
    headers: { cookie, origin: server.url, 'x-forwarded-for': '192.0.2.11' },
  });
  expect(signOut.status).toBe(200);

  // A failure's audit row is written after its answer.
  const rows = await vi.waitFor(async () => {
    const written = await auditRows();
    expect(written.map((r) => r.detail.address)).toContain('192.0.2.10');
    return written;
  });
  expect(rows).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        actor: 'unknown',
        action: 'admin.auth_failed',
        detail: { address: '192.0.2.10', path: `${BASE}/tokens`, reason: 'invalid_token' },
      }),
      expect.objectContaining({ actor: 'ops', action: 'console.sign_in', detail: { address: '192.0.2.11' } }),
      expect.objectContaining({
        actor: 'ops',
        action: 'console.sign_out',
        detail: { address: '192.0.2.11' },
      }),
    ]),
  );
  const ops = await server.services.tokens.list();
  const opsId = ops.find((t) => t.name === 'ops')?.id;
  expect(rows.find((r) => r.action === 'console.sign_in')).toMatchObject({ actor_id: opsId });
  expect(rows.find((r) => r.action === 'admin.auth_failed')).toMatchObject({ actor_id: null });
  const text = JSON.stringify(rows);
  expect(text).not.toContain(wrong);
  expect(text).not.toContain(admin);
});

it('names an action’s actor by token id, which tells apart two admin tokens of one name', async () => {
  const first = await server.token({ name: 'night', role: 'admin' });
  const patch = (token: string, rate: number) =>
    fetch(`${server.url}${BASE}/tokens/acme`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-forwarded-for': '192.0.2.20',
      },
      body: JSON.stringify({ rate_per_second: rate }),
    });
  expect((await patch(first, 11)).status).toBe(200);
  const firstId = (await server.services.tokens.list()).find(
    (t) => t.name === 'night' && t.revokedAt === null,
  )?.id;
  await server.services.tokens.revoke('night');
  const second = await server.token({ name: 'night', role: 'admin' });
  expect((await patch(second, 12)).status).toBe(200);
  const secondId = (await server.services.tokens.list()).find(
    (t) => t.name === 'night' && t.revokedAt === null,
  )?.id;
  expect(secondId).not.toBe(firstId);
  const updates = (await auditRows()).filter((r) => r.action === 'token.update' && r.actor === 'night');
  expect(updates.map((r) => r.actor_id)).toEqual([secondId, firstId]);
});
