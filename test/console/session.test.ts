/**
 * The console's session over HTTP: an admin token exchanged for an HttpOnly, SameSite=Strict
 * cookie that the admin API accepts, mutations refused from another origin, sign-out and
 * revocation ending it, and the console's files served with their security policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../support/server.js';

const BASE = '/admin/api/v1';
let server: TestServer;
let admin: string;
let origin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.token({ name: 'ops', role: 'admin' });
  origin = server.url;
});
afterAll(() => server?.close());

interface Body {
  name?: string | null;
  rows?: Record<string, unknown>[];
  error?: Record<string, unknown>;
}

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text || '{}') as Body,
  };
}

async function signIn(token = admin): Promise<string> {
  const answer = await call('POST', `${BASE}/session`, { origin }, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const cookie = answer.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] as string;
}

describe('console sessions', () => {
  it('exchanges an admin token for an HttpOnly, SameSite=Strict cookie of 8 hours that the admin API accepts', async () => {
    const answer = await call('POST', `${BASE}/session`, { origin }, { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('ops');
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^switchyard_console=[\w-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Max-Age=28800');
    expect(cookie).toContain(`Path=${BASE}`);
    expect(cookie).not.toContain(admin);
    const session = cookie.split(';')[0] as string;
    expect((await call('GET', `${BASE}/tokens`, { cookie: session })).status).toBe(200);
    expect((await call('GET', `${BASE}/session`, { cookie: session })).body).toEqual({
      name: 'ops',
      ended: null,
    });
    // Nobody signed in is an answer, not an error: the console asks on every load.
    const nobody = await call('GET', `${BASE}/session`, {});
    expect([nobody.status, nobody.body]).toEqual([200, { name: null, ended: null }]);
  });

  it('refuses bad tokens, client tokens and sign-ins from another origin, each with a clear message', async () => {
    const unknown = await call('POST', `${BASE}/session`, { origin }, { token: 'sy_nothing' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toMatchObject({
      code: 'invalid_token',
      message: 'the token is unknown or has been revoked',
    });
    const client = await call('POST', `${BASE}/session`, { origin }, { token: await server.token() });
    expect(client.status).toBe(403);
    expect(client.body.error).toMatchObject({
      message: 'this is a client token; the console takes an admin token',
    });
    const missing = await call('POST', `${BASE}/session`, { origin }, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ details: [{ field: 'token', rule: 'is required' }] });
    const elsewhere = await call(
      'POST',
      `${BASE}/session`,
      { origin: 'https://evil.example' },
      { token: admin },
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a change made with the cookie from another origin or none, and takes it from its own', async () => {
    const session = await signIn();
    const body = { name: 'made-by-cookie' };
    const cross = await call(
      'POST',
      `${BASE}/tokens`,
      { cookie: session, origin: 'https://evil.example' },
      body,
    );
    expect(cross.status).toBe(403);
    expect(cross.body.error).toMatchObject({ code: 'forbidden' });
    expect((await call('POST', `${BASE}/tokens`, { cookie: session }, body)).status).toBe(403);
    expect(
      (await call('GET', `${BASE}/tokens?q=made-by-cookie`, { cookie: session })).body.rows,
    ).toHaveLength(0);
    const own = await call('POST', `${BASE}/tokens`, { cookie: session, origin }, body);
    expect(own.status).toBe(201);
    // The audit names the admin token behind the session.
    const audit = await call('GET', `${BASE}/audit?limit=1`, { cookie: session });
    expect(audit.body.rows?.[0]).toMatchObject({ actor: 'ops', action: 'token.create' });
  });

  it('ends the session on the server at sign-out, and at once when its token is revoked or disabled', async () => {
    const session = await signIn();
    const out = await call('DELETE', `${BASE}/session`, { cookie: session, origin });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    const after = await call('GET', `${BASE}/tokens`, { cookie: session });
    expect(after.status).toBe(401);
    expect(after.body.error).toMatchObject({ message: 'the console session has ended; sign in again' });
    expect((await call('GET', `${BASE}/session`, { cookie: session })).body).toEqual({
      name: null,
      ended: 'the console session has ended; sign in again',
    });

    const other = await server.token({ name: 'ops-2', role: 'admin' });
    const second = await signIn(other);
    expect((await call('GET', `${BASE}/overview`, { cookie: second })).status).toBe(200);
    await call('PATCH', `${BASE}/tokens/ops-2`, { authorization: `Bearer ${admin}` }, { disabled: true });
    const disabled = await call('GET', `${BASE}/overview`, { cookie: second });
    expect(disabled.status).toBe(401);
    expect(disabled.body.error).toMatchObject({ message: 'the token is disabled' });
    await call('DELETE', `${BASE}/tokens/ops-2`, { authorization: `Bearer ${admin}` });
    expect((await call('GET', `${BASE}/overview`, { cookie: second })).body.error).toMatchObject({
      message: 'the token is unknown or has been revoked',
    });
  });

  it('keeps a session across a restart and on another node of the same database, holding no secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-sessions-'));
    const url = `sqlite:${join(dir, 'switchyard.db')}`;
    const first = await startServer({ 'database.url': url });
    let second: TestServer | undefined;
    try {
      const token = await first.token({ name: 'night-ops', role: 'admin' });
      const answer = await fetch(`${first.url}${BASE}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: first.url },
        body: JSON.stringify({ token }),
      });
      const session = (answer.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const id = session.split('=')[1] as string;
      // The database holds hashes only: neither the cookie's id nor the admin token.
      const rows = await first.services.db.selectFrom('console_sessions').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(id);
      expect(JSON.stringify(rows)).not.toContain(token);
      await first.close();
      second = await startServer({ 'database.url': url });
      const who = await fetch(`${second.url}${BASE}/session`, { headers: { cookie: session } });
      expect(await who.json()).toEqual({ name: 'night-ops', ended: null });
      const tokens = await fetch(`${second.url}${BASE}/tokens`, { headers: { cookie: session } });
      expect(tokens.status).toBe(200);
    } finally {
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("serves the console's page for each of its paths, with a policy that keeps every request on this server, and its hashed files cached for good", async () => {
    expect(existsSync('console/dist/index.html'), 'the console is built by `make setup`').toBe(true);
    const redirect = await fetch(`${server.url}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/console/');
    for (const path of ['/console/', '/console/tokens']) {
      const page = await fetch(`${server.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      const html = await page.text();
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${server.url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('text/javascript');
      expect(asset.headers.get('cache-control')).toContain('immutable');
    }
  });
});
