/**
 * A console session on the distributed deployment: signed in on one API node, used on another
 * (PostgreSQL and Redis shared), still good after the first node restarts, and ended everywhere
 * when its admin token is revoked on either node.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { provisionShared, type Provisioned } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';

const BASE = '/admin/api/v1';
let shared: Provisioned;
const nodes: TestServer[] = [];

/** An API node of the shared deployment. */
async function node(): Promise<TestServer> {
  const started = await startServer(shared.overrides);
  nodes.push(started);
  return started;
}

beforeAll(async () => {
  shared = await provisionShared();
});
afterAll(async () => {
  for (const started of nodes) await started.close().catch(() => undefined);
  await shared?.release();
});

it('is signed in on one node, used on another and after a restart, and ended by revoking its token', async () => {
  const first = await node();
  const second = await node();
  const token = await first.token({ name: 'night-ops', role: 'admin' });
  const signIn = await fetch(`${first.url}${BASE}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: first.url },
    body: JSON.stringify({ token }),
  });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const overview = (at: TestServer) => fetch(`${at.url}${BASE}/overview`, { headers: { cookie } });

  expect((await overview(second)).status).toBe(200);
  // A change through the second node, with the session signed in on the first.
  const patched = await fetch(`${second.url}${BASE}/tokens/night-ops`, {
    method: 'PATCH',
    headers: { cookie, origin: second.url, 'content-type': 'application/json' },
    body: JSON.stringify({ rate_per_second: 7 }),
  });
  expect(patched.status).toBe(200);

  await first.close();
  nodes.splice(nodes.indexOf(first), 1);
  const restarted = await node();
  expect((await overview(restarted)).status).toBe(200);

  // Revoked on the restarted node (with another admin token): the other node learns of it
  // from the token changes it watches.
  const other = await restarted.token({ name: 'day-ops', role: 'admin' });
  const revoked = await fetch(`${restarted.url}${BASE}/tokens/night-ops`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${other}` },
  });
  expect(revoked.status).toBe(200);
  expect((await overview(restarted)).status).toBe(401);
  await vi.waitFor(async () => expect((await overview(second)).status).toBe(401), {
    timeout: 10_000,
    interval: 100,
  });
});
