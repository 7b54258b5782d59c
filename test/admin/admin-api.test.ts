/**
 * The admin API over HTTP, on SQLite and on PostgreSQL + Redis: both roles on each other's
 * paths, every route with its answer and its bad inputs (400 naming the field), the secrets shown
 * once, and the books: after top-ups, charges, refunds, failures and a cancellation, a balance
 * equals its ledger and what it started with, plus the top-ups, less the credits its usage kept.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_ROUTES } from '../../src/admin/routes.js';
import { OPERATIONS } from '../../src/contract/table.js';
import { BACKENDS } from '../support/backends.js';
import { pollTask } from '../support/poll.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';

vi.setConfig({ testTimeout: 30_000 });

const BASE = '/admin/api/v1';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let admin: string;
  let receiver: Server;
  let hookUrl: string;
  const hooks: { id: string; body: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        hooks.push({
          id: String(request.headers['webhook-id']),
          body: JSON.parse(text) as Record<string, unknown>,
        });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    server = await startServer(
      {
        prices: { 'serp.web': 1, 'clip.videos': 5 },
        'outbound.allow_private': true,
        'callbacks.poll_ms': 50,
        channels: [
          {
            name: 'fake-chat',
            capability: 'chat',
            type: 'openai-compatible',
            base_url: 'http://127.0.0.1:9/v1',
            api_key: 'sk-never-shown',
            models: ['chatmodel-4o*'],
          },
        ],
      },
      { backend, providers: testProviders() },
    );
    admin = (await server.services.tokens.create({ name: 'ops', role: 'admin' })).secret;
  });
  afterAll(async () => {
    await server?.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  async function call(method: string, path: string, body?: unknown, token = admin) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // CSV and other text answers are read from `text`.
    }
    return { status: response.status, body: json, text, headers: response.headers };
  }

  /** A 400 whose details name `field`. */
  async function refused(method: string, path: string, field: string, body?: unknown) {
    const answer = await call(method, `${BASE}${path}`, body);
    expect(answer.status, `${method} ${path} ${JSON.stringify(body)}: ${answer.text}`).toBe(400);
    const error = answer.body.error as { code: string; details: { field: string }[] };
    expect(error.code).toBe('bad_request');
    expect(error.details.map((d) => d.field)).toContain(field);
  }

  async function settled() {
    await server.services.usage.flush();
  }

  it('keeps each role on its own paths', async () => {
    const client = await server.token();
    const forbidden = await call('GET', `${BASE}/tokens`, undefined, client);
    expect(forbidden.status).toBe(403);
    expect((forbidden.body.error as { code: string }).code).toBe('forbidden');
    const operation = await server.post('/serp/web', { query: 'x' }, admin);
    expect(operation.status).toBe(403);
    expect((operation.body.error as { code: string }).code).toBe('forbidden');
    expect((await call('GET', '/v1/account', undefined, admin)).status).toBe(403);
    expect((await call('GET', `${BASE}/tokens`, undefined, 'sy_unknown')).status).toBe(401);
    expect((await fetch(`${server.url}${BASE}/overview`)).status).toBe(401);
    expect((await call('GET', `${BASE}/nothing`)).body.error).toMatchObject({ code: 'no_api' });
    // Every admin route refuses the client token, every operation the admin token.
    for (const route of ADMIN_ROUTES) {
      const answer = await call(route.method, `${BASE}${route.url.replace(/:\w+/g, 'x')}`, undefined, client);
      expect([route.method, route.url, answer.status, (answer.body.error as { code: string }).code]).toEqual([
        route.method,
        route.url,
        403,
        'forbidden',
      ]);
    }
    for (const operation of OPERATIONS) {
      const answer = await server.post(operation.path, {}, admin);
      expect([operation.path, answer.status, (answer.body.error as { code: string }).code]).toEqual([
        operation.path,
        403,
        'forbidden',
      ]);
    }
  });

  it('lets a viewer read every list and refuses it every change, which the audit never shows', async () => {
    const created = await call('POST', `${BASE}/tokens`, { name: 'auditor', role: 'viewer' });
    expect(created.status).toBe(201);
    const viewer = created.body.token as string;
    expect(created.body.role).toBe('viewer');
    for (const route of ADMIN_ROUTES) {
      const answer = await call(route.method, `${BASE}${route.url.replace(/:\w+/g, 'x')}`, undefined, viewer);
      const code = (answer.body.error as { code?: string } | undefined)?.code;
      if (route.method === 'GET') expect([route.url, code]).not.toEqual([route.url, 'forbidden']);
      else
        expect([route.method, route.url, answer.status, code]).toEqual([
          route.method,
          route.url,
          403,
          'forbidden',
        ]);
    }
    expect((await call('GET', `${BASE}/tokens`, undefined, viewer)).status).toBe(200);
    expect((await call('GET', `${BASE}/overview`, undefined, viewer)).status).toBe(200);
    // Nor is a viewer a client: operations refuse it as they refuse an admin token.
    expect((await server.post('/serp/web', { query: 'x' }, viewer)).status).toBe(403);
    const audit = await call('GET', `${BASE}/audit?limit=100`);
    const actors = (audit.body.rows as { actor: string }[]).map((entry) => entry.actor);
    expect(actors).not.toContain('auditor');
  });

  it('creates, reads, edits, regenerates and revokes tokens, each secret shown once', async () => {
    const created = await call('POST', `${BASE}/tokens`, {
      name: 'acme',
      credits: 100,
      operations: ['serp', '/clip/videos'],
      rate_per_second: 50,
      concurrency: 4,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'acme',
      role: 'client',
      balance: 100,
      unlimited: false,
      spent: 0,
    });
    expect(created.body.token).toMatch(/^sy_/);
    expect(created.body.webhook_secret).toMatch(/^whsec_/);
    expect(created.body.operations).toEqual(['/serp/web', '/clip/videos']);
    const secret = created.body.token as string;
    expect((await call('POST', `${BASE}/tokens`, { name: 'acme' })).status).toBe(409);

    const read = await call('GET', `${BASE}/tokens/acme`);
    expect(read.body).toMatchObject({
      id: created.body.id,
      rate_per_second: 50,
      concurrency: 4,
      disabled: false,
    });
    expect(read.body).not.toHaveProperty('token');
    expect(read.body).not.toHaveProperty('webhook_secret');
    expect((await call('GET', `${BASE}/tokens/${created.body.id as string}`)).body.name).toBe('acme');
    expect((await call('GET', `${BASE}/tokens/nobody`)).status).toBe(404);
    const list = await call('GET', `${BASE}/tokens?limit=500`);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain('whsec_');
    expect((list.body.rows as { name: string }[]).map((t) => t.name)).toContain('acme');

    const patched = await call('PATCH', `${BASE}/tokens/acme`, { rate_per_second: null, disabled: true });
    expect(patched.body).toMatchObject({ rate_per_second: null, disabled: true });
    expect((await server.post('/serp/web', { query: 'x' }, secret)).status).toBe(401);
    await call('PATCH', `${BASE}/tokens/acme`, { disabled: false });
    expect((await server.post('/serp/web', { query: 'x' }, secret)).status).toBe(200);
    // Clip is allowed, chat is not.
    expect(
      (
        await server.post(
          '/chatmodel/chat/completions',
          { model: 'chatmodel-4o', messages: [{ role: 'user', content: 'hi' }] },
          secret,
        )
      ).status,
    ).toBe(403);

    const rotated = await call('POST', `${BASE}/tokens/acme/rotate-secret`);
    expect(rotated.body.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.body.webhook_secret).not.toBe(created.body.webhook_secret);

    const regenerated = await call('POST', `${BASE}/tokens/acme/regenerate`, {});
    expect(regenerated.body.token).toMatch(/^sy_/);
    expect((await server.post('/serp/web', { query: 'x' }, secret)).status).toBe(401);
    expect((await server.post('/serp/web', { query: 'x' }, regenerated.body.token as string)).status).toBe(
      200,
    );
    await settled();
    const after = await call('GET', `${BASE}/tokens/acme`);
    expect(after.body).toMatchObject({ id: created.body.id, balance: 98, spent: 2 });
    expect(after.body.last_used_at).toMatch(/^\d{4}-/);

    const revoked = await call('DELETE', `${BASE}/tokens/acme`);
    expect(revoked.body.revoked_at).toMatch(/^\d{4}-/);
    expect((await server.post('/serp/web', { query: 'x' }, regenerated.body.token as string)).status).toBe(
      401,
    );
    // The name is free again once its token is revoked.
    expect((await call('POST', `${BASE}/tokens`, { name: 'acme', role: 'admin' })).status).toBe(201);
  });

  it('refuses bad token input, naming the field', async () => {
    await refused('POST', '/tokens', 'name', { name: 'has space' });
    await refused('POST', '/tokens', 'credits', { name: 'ok1', credits: -1 });
    await refused('POST', '/tokens', 'credits', { name: 'ok1', credits: 1e20 });
    await refused('POST', '/tokens', 'concurrency', { name: 'ok1', concurrency: 1e10 });
    await refused('POST', '/tokens', 'rate_per_second', { name: 'ok1', rate_per_second: 0 });
    await refused('POST', '/tokens', 'calback', { name: 'ok1', calback: 1 });
    await refused('POST', '/tokens', 'operations', { name: 'ok1', operations: ['nothing'] });
    await refused('POST', '/tokens', 'expires_at', { name: 'ok1', expires_at: 'soon' });
    // A day the month does not have, which Date.parse would roll over into the next month.
    await refused('POST', '/tokens', 'expires_at', { name: 'ok1', expires_at: '2030-02-31' });
    await refused('PATCH', '/tokens/ops', 'expires_at', { expires_at: '2030-04-31T12:00:00Z' });
    await refused('POST', '/tokens', 'role', { name: 'ok1', role: 'root' });
    await refused('POST', '/tokens', 'body', [1, 2]);
    await refused('PATCH', '/tokens/ops', 'body', {});
    await refused('PATCH', '/tokens/ops', 'concurrency', { concurrency: 0 });
    await refused('PATCH', '/tokens/ops', 'unlimited', { unlimited: 'yes' });
    await refused('POST', '/tokens/ops/credits', 'delta', { delta: 0 });
    await refused('POST', '/tokens/ops/credits', 'delta', { delta: 1.5 });
    await refused('POST', '/tokens/ops/credits', 'note', { delta: 1, note: 'x'.repeat(501) });
    await refused('POST', '/tokens/ops/rotate-secret', 'extra', { extra: true });
    await refused('GET', '/tokens?limit=0', 'limit');
    await refused('GET', '/tokens?limit=501', 'limit');
    await refused('GET', '/tokens?before=nonsense', 'before');
    await refused('GET', '/tokens?page=2', 'page');
    await refused('GET', '/usage?group_by=week', 'group_by');
    await refused('GET', '/usage?from=yesterday', 'from');
    await refused('GET', '/usage?from=2026-02-30', 'from');
    await refused('GET', '/usage?operation=nope', 'operation');
    await refused('GET', '/requests?operation=/serp/nowhere', 'operation');
    await refused('GET', '/usage?to=999999999999999999999', 'to');
    await refused('GET', '/requests?token=acme&token=ops', 'token');
    await refused('GET', '/usage?format=xml', 'format');
    await refused('GET', '/usage?token=nobody', 'token');
    await refused('GET', '/requests?status=99', 'status');
    await refused('GET', '/tasks?state=done', 'state');
    await refused('GET', '/tasks?family=music', 'family');
    await refused('GET', '/ledger?limit=x', 'limit');
    await refused('GET', '/overview?x=1', 'x');
    await refused('POST', '/identities', 'id_number', { name: 'A', id_number: '123' });
    await refused('POST', '/identities', 'portrait', {
      name: 'A',
      id_number: '11010519491231002X',
      portrait: 'aGVsbG8=',
    });
    const malformed = await fetch(`${server.url}${BASE}/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
  });

  it('keeps the ledger, the usage and the balance in step through top-ups, charges, refunds and failures', async () => {
    const created = await call('POST', `${BASE}/tokens`, { name: 'books', credits: 20 });
    const secret = created.body.token as string;
    const topup = await call('POST', `${BASE}/tokens/books/credits`, { delta: 500, note: 'invoice 42' });
    expect(topup.body).toMatchObject({ balance: 520, delta: 500 });
    const deduction = await call('POST', `${BASE}/tokens/books/credits`, {
      delta: -10,
      note: 'goodwill back',
    });
    expect(deduction.body.balance).toBe(510);
    const tooMuch = await call('POST', `${BASE}/tokens/books/credits`, { delta: -100000 });
    expect(tooMuch.status).toBe(409);
    expect((tooMuch.body.error as { message: string }).message).toContain('510');

    // Charged searches, a failed search (refunded), a task that succeeds and one that fails.
    for (let i = 0; i < 3; i++)
      expect((await server.post('/serp/web', { query: `q${i}` }, secret)).status).toBe(200);
    expect((await server.post('/serp/web', { query: 'fail=upstream_error' }, secret)).status).toBe(502);
    const ok = await server.post(
      '/clip/videos',
      { action: 'text2video', prompt: 'fine', async: true },
      secret,
    );
    const bad = await server.post(
      '/clip/videos',
      { action: 'text2video', prompt: 'fail=upstream_error', async: true },
      secret,
    );
    await pollTask(server, 'clip', ok.body.task_id as string, secret);
    await pollTask(server, 'clip', bad.body.task_id as string, secret);
    await settled();

    const token = await call('GET', `${BASE}/tokens/books`);
    expect(token.body).toMatchObject({ balance: 510 - 3 - 5, spent: 8 });
    const ledger = await call('GET', `${BASE}/ledger?token=books&limit=500`);
    const entries = ledger.body.rows as {
      kind: string;
      delta: number;
      balance_after: number;
      actor: string;
      note: string | null;
    }[];
    expect(entries.reduce((sum, e) => sum + e.delta, 0)).toBe(502);
    expect(entries[0]?.balance_after).toBe(502);
    expect(entries.find((e) => e.kind === 'topup' && e.note === 'invoice 42')?.actor).toBe('ops');
    expect(entries.find((e) => e.kind === 'adjustment')).toMatchObject({
      delta: -10,
      actor: 'ops',
      note: 'goodwill back',
    });
    // The failed task is refunded; the failed search too where its price was held (PostgreSQL),
    // while on SQLite it was never charged.
    expect(entries.filter((e) => e.kind === 'refund')).toHaveLength(backend === 'embedded' ? 1 : 2);
    const usage = await call('GET', `${BASE}/usage?token=books&group_by=token`);
    const [row] = usage.body.rows as {
      requests: number;
      succeeded: number;
      failed: number;
      credits: number;
    }[];
    // The task retrievals of pollTask are requests too, charged nothing. The failed search and
    // the failed task are the failures: the task was answered 200, and failed after.
    expect(row).toMatchObject({ token: 'books', failed: 2, credits: 8 });
    const byOperation = await call('GET', `${BASE}/usage?token=books&group_by=operation`);
    expect(byOperation.body.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operation: 'serp.web', requests: 4, failed: 1, credits: 3 }),
        expect.objectContaining({ operation: 'clip.videos', requests: 2, failed: 1, credits: 5 }),
      ]),
    );
    // What it started with, plus top-ups and deductions, less what its usage kept.
    expect(20 + 500 - 10 - (row?.credits ?? 0)).toBe(token.body.balance);

    const account = await call('GET', '/v1/account', undefined, secret);
    expect(account.body).toMatchObject({ name: 'books', balance: 502, unlimited: false, spent_today: 8 });
    const own = await call('GET', '/v1/account/usage?group_by=operation', undefined, secret);
    expect(own.body.rows).toEqual(
      expect.arrayContaining([expect.objectContaining({ operation: 'serp.web', requests: 4, credits: 3 })]),
    );
    expect(JSON.stringify(own.body)).not.toContain('"token"');
    expect((await call('GET', '/v1/account/usage?group_by=week', undefined, secret)).status).toBe(400);
    // The prices the operator set, as the admin settings show them, for clients to read.
    const pricing = await call('GET', '/v1/pricing', undefined, secret);
    expect(pricing.body.prices).toMatchObject({ 'serp.web': 1, 'clip.videos': 5 });
    expect(pricing.body.prices).toEqual((await call('GET', `${BASE}/settings`)).body.prices);
    expect((await call('GET', '/v1/pricing', undefined, admin)).status).toBe(403);

    const unlimited = await call('PATCH', `${BASE}/tokens/books`, { unlimited: true });
    expect(unlimited.body).toMatchObject({ unlimited: true, balance: null });
    expect((await call('POST', `${BASE}/tokens/books/credits`, { delta: 5 })).status).toBe(409);
    const ledgerAfter = await call('GET', `${BASE}/ledger?token=books&limit=500`);
    expect((ledgerAfter.body.rows as { delta: number }[]).reduce((sum, e) => sum + e.delta, 0)).toBe(0);
  });

  it('answers usage grouped by day and as CSV, and the request log page by page with filters', async () => {
    const secret = (await call('POST', `${BASE}/tokens`, { name: 'logger', credits: 50 })).body
      .token as string;
    await server.post('/serp/web', { query: 'one' }, secret);
    await server.post('/serp/web', { query: 'fail=busy' }, secret);
    await server.post('/serp/web', { query: 'three' }, secret);
    const task = await server.post(
      '/clip/videos',
      { action: 'text2video', prompt: 'fine', async: true },
      secret,
    );
    await pollTask(server, 'clip', task.body.task_id as string, secret);
    await settled();

    const byDay = await call(
      'GET',
      `${BASE}/usage?token=logger&group_by=day,operation&from=2020-01-01T00:00:00Z`,
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(byDay.body.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          day: today,
          operation: 'serp.web',
          requests: 3,
          succeeded: 2,
          failed: 1,
          credits: 2,
        }),
        expect.objectContaining({ day: today, operation: 'clip.videos', requests: 1, credits: 5 }),
      ]),
    );
    const first = (byDay.body.rows as { p50_ms: number; p95_ms: number }[])[0];
    expect(first?.p50_ms).toBeGreaterThan(0);
    expect(first?.p95_ms).toBeGreaterThanOrEqual(first?.p50_ms ?? 0);
    const csv = await call('GET', `${BASE}/usage?token=logger&group_by=operation&format=csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toBe('operation,requests,succeeded,failed,credits,p50_ms,p95_ms');
    expect(csv.text).toContain('serp.web,3,2,1,2,');
    const nothing = await call('GET', `${BASE}/usage?token=logger&to=2020-01-01`);
    expect(nothing.body.rows).toEqual([]);

    const log = await call('GET', `${BASE}/requests?token=logger`);
    // Without the task retrievals of pollTask.
    const rows = (log.body.rows as Record<string, unknown>[]).filter((r) => r.operation !== 'tasks.retrieve');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({
      token: 'logger',
      operation: 'clip.videos',
      task_id: task.body.task_id,
      credits: 5,
      success: true,
    });
    expect(rows[2]).toMatchObject({
      operation: 'serp.web',
      status: 503,
      success: false,
      error_code: 'busy',
      credits: 0,
    });
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'at',
        'credits',
        'error_code',
        'latency_ms',
        'model',
        'operation',
        'quote',
        'status',
        'success',
        'task_id',
        'token',
        'trace_id',
      ].sort(),
    );
    const failed = await call('GET', `${BASE}/requests?token=logger&status=5xx`);
    expect((failed.body.rows as unknown[]).length).toBe(1);
    expect((await call('GET', `${BASE}/requests?token=logger&status=503`)).body.rows).toHaveLength(1);
    expect((await call('GET', `${BASE}/requests?token=logger&operation=clip.videos`)).body.rows).toHaveLength(
      1,
    );
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const page = await call('GET', `${BASE}/requests?token=logger&limit=3${next ? `&before=${next}` : ''}`);
      seen.push(...(page.body.rows as { trace_id: string }[]).map((r) => r.trace_id));
      next = page.body.next as string | null;
    } while (next);
    expect(seen).toEqual((log.body.rows as { trace_id: string }[]).map((r) => r.trace_id));
  });

  it('lists tasks with state and progress, cancels one (refunded, called back) and redelivers a callback', async () => {
    const secret = (await call('POST', `${BASE}/tokens`, { name: 'tasker', credits: 100 })).body
      .token as string;
    const hanging = await server.post(
      '/clip/videos',
      // It would run ten minutes: the cancellation stops its engine (the server's close waits
      // for running engines, so this file would time out otherwise).
      { action: 'text2video', prompt: 'hang', callback_url: hookUrl },
      secret,
    );
    const id = hanging.body.task_id as string;
    await pollTask(server, 'clip', id, secret, (t) => t.state === 'running');
    const listed = await call('GET', `${BASE}/tasks?token=tasker&state=running`);
    expect(listed.body.rows).toEqual([
      expect.objectContaining({
        id,
        state: 'running',
        operation: 'clip.videos',
        credits: 5,
        token: 'tasker',
      }),
    ]);
    expect((await call('GET', `${BASE}/tokens/tasker`)).body.balance).toBe(95);

    const cancelled = await call('POST', `${BASE}/tasks/${id}/cancel`);
    expect(cancelled.body).toMatchObject({ state: 'failed', error: { code: 'cancelled' } });
    expect((await call('POST', `${BASE}/tasks/${id}/cancel`)).status).toBe(409);
    expect((await call('GET', `${BASE}/tokens/tasker`)).body.balance).toBe(100);
    const refunds = (await call('GET', `${BASE}/ledger?token=tasker`)).body.rows as { kind: string }[];
    expect(refunds.filter((e) => e.kind === 'refund')).toHaveLength(1);
    const retrieved = await pollTask(server, 'clip', id, secret);
    expect(retrieved.state).toBe('failed');

    const waitFor = async (count: number) => {
      for (let i = 0; i < 200 && hooks.filter((h) => h.body.task_id === id).length < count; i++)
        await new Promise((r) => setTimeout(r, 25));
      return hooks.filter((h) => h.body.task_id === id);
    };
    const [first] = await waitFor(1);
    expect(first?.body).toMatchObject({ success: false, error: { code: 'cancelled' } });
    const again = await call('POST', `${BASE}/tasks/${id}/redeliver`);
    expect(again.status).toBe(200);
    const both = await waitFor(2);
    expect(both).toHaveLength(2);
    expect(both[1]?.body).toEqual(first?.body);
    expect(both[1]?.id).not.toBe(first?.id);

    expect((await call('GET', `${BASE}/tasks/${id}`)).body).toMatchObject({ id, callback: { url: hookUrl } });

    // A client waiting for the task it submitted learns of the cancellation: 409, with the task.
    const waiting = server.post('/clip/videos', { action: 'text2video', prompt: 'hang' }, secret);
    let running: { id: string } | undefined;
    for (let i = 0; i < 200 && !running; i++) {
      running = (
        (await call('GET', `${BASE}/tasks?token=tasker&state=running`)).body.rows as { id: string }[]
      )[0];
      if (!running) await new Promise((r) => setTimeout(r, 10));
    }
    await call('POST', `${BASE}/tasks/${running?.id}/cancel`);
    const answer = await waiting;
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      error: { code: 'conflict', message: 'cancelled by ops' },
      task_id: running?.id,
    });
    expect((await call('GET', `${BASE}/tasks/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await call('POST', `${BASE}/tasks/00000000-0000-4000-8000-000000000000/cancel`)).status).toBe(
      404,
    );
    const pages = await call('GET', `${BASE}/tasks?limit=1`);
    expect(pages.body.rows).toHaveLength(1);
    expect(typeof pages.body.next).toBe('string');
  });

  it('lists every channel without its key, disables one (503) and enables and probes it', async () => {
    const list = await call('GET', `${BASE}/channels`);
    expect(list.text).not.toContain('sk-never-shown');
    const rows = list.body.rows as { id: string; kind: string; capability: string; state: string }[];
    expect(rows.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        'fake-chat',
        'local-index',
        'local:clip',
        'local:tune',
        'local:qrart',
        'local:identity',
      ]),
    );
    expect(rows.find((r) => r.id === 'local:clip')).toMatchObject({
      kind: 'local',
      capability: 'clip',
      state: 'ok',
    });
    const secret = await server.token();

    expect((await call('POST', `${BASE}/channels/local:clip/disable`)).body).toMatchObject({
      state: 'disabled',
      disabled_by: 'ops',
    });
    const refusedTask = await server.post(
      '/clip/videos',
      { action: 'text2video', prompt: 'x', async: true },
      secret,
    );
    expect(refusedTask.status).toBe(503);
    expect((refusedTask.body.error as { code: string }).code).toBe('busy');
    await call('POST', `${BASE}/channels/local:clip/enable`);
    expect(
      (await server.post('/clip/videos', { action: 'text2video', prompt: 'x', async: true }, secret)).status,
    ).toBe(200);

    await call('POST', `${BASE}/channels/local-index/disable`);
    expect((await server.post('/serp/web', { query: 'x' }, secret)).status).toBe(503);
    await call('POST', `${BASE}/channels/local-index/enable`);
    expect((await server.post('/serp/web', { query: 'x' }, secret)).status).toBe(200);

    const local = await call('POST', `${BASE}/channels/local:tune/probe`);
    expect(local.body.last_probe).toMatchObject({ ok: true });
    const upstream = await call('POST', `${BASE}/channels/fake-chat/probe`);
    expect(upstream.body.last_probe).toMatchObject({ ok: false });
    expect((await call('POST', `${BASE}/channels/nothing/disable`)).status).toBe(404);

    // The chat family in OpenAI's list shape, only the models its channel serves.
    const sdk = (family: string) =>
      new OpenAI({ baseURL: `${server.url}/${family}`, apiKey: secret, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of sdk('chatmodel').models.list()) ids.push(model.id);
    expect(ids).toContain('chatmodel-4o');
    expect(ids).not.toContain('chatmodel-5');
    const moon = [];
    for await (const model of sdk('moon').models.list()) moon.push(model);
    expect(moon).toEqual([]);
    const serp = await call('GET', '/serp/models', undefined, secret);
    expect(serp.body).toEqual({
      object: 'list',
      data: [expect.objectContaining({ id: 'serp.web', object: 'model' })],
    });
    expect((await call('GET', '/tune/models', undefined, secret)).body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'tune-v5' })]),
    );
  });

  // Only a shared store has other nodes; the embedded store is one process.
  if (backend === 'postgres+redis')
    it('holds a channel switch on every node within a second', async () => {
      // A second node on the same PostgreSQL and Redis.
      const other = await startServer(
        {
          'database.url': server.config.database.url,
          'redis.url': server.config.redis.url,
          'redis.prefix': server.config.redis.prefix,
        },
        { providers: testProviders() },
      );
      try {
        const secret = await server.token();
        await call('POST', `${BASE}/channels/local-index/disable`);
        const started = Date.now();
        let status = 0;
        while (Date.now() - started < 3000 && status !== 503) {
          status = (await other.post('/serp/web', { query: 'x' }, secret)).status;
          if (status !== 503) await new Promise((r) => setTimeout(r, 50));
        }
        expect(status).toBe(503);
        expect(Date.now() - started).toBeLessThan(1500);
        await call('POST', `${BASE}/channels/local-index/enable`);
      } finally {
        await other.close();
      }
    });

  it('keeps the identity registry masked in lists', async () => {
    const enrolled = await call('POST', `${BASE}/identities`, {
      name: '张三丰',
      id_number: '11010519491231002x',
    });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body).toMatchObject({ name: '张**', id_number: '1101**********002X', portrait: false });
    expect(
      (await call('POST', `${BASE}/identities`, { name: '张三丰', id_number: '11010519491231002X' })).status,
    ).toBe(409);
    const id = enrolled.body.id as string;
    const list = await call('GET', `${BASE}/identities`);
    expect(list.text).not.toContain('张三丰');
    expect(list.text).not.toContain('11010519491231002X');
    expect((await call('PATCH', `${BASE}/identities/${id}`, { name: '李四' })).body).toMatchObject({
      id,
      name: '李*',
    });
    expect((await call('DELETE', `${BASE}/identities/${id}`)).body).toEqual({ id, removed: true });
    expect((await call('DELETE', `${BASE}/identities/${id}`)).status).toBe(404);
  });

  it('shows the last 24 hours and the audit of every admin action', async () => {
    const overview = await call('GET', `${BASE}/overview`);
    expect(overview.body.hours).toHaveLength(24);
    expect((overview.body.totals as { requests: number }).requests).toBeGreaterThan(10);
    expect(overview.body.tasks).toMatchObject({ failed: expect.any(Number), succeeded: expect.any(Number) });
    expect((overview.body.channels as { ok: number }).ok).toBeGreaterThan(3);
    const audit = await call('GET', `${BASE}/audit?limit=500`);
    const actions = (audit.body.rows as { action: string; actor: string; target: string }[]).map(
      (r) => `${r.actor} ${r.action} ${r.target}`,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        'ops token.create books',
        'ops token.credits books',
        'ops token.regenerate acme',
        'ops channel.disable local:clip',
        expect.stringMatching(/^ops task.cancel /),
        expect.stringMatching(/^ops identity.enroll /),
      ]),
    );
    expect(audit.text).not.toContain('sy_');
  });

  it('puts every admin route in the OpenAPI document under the tag admin, with an example', async () => {
    const document = (await call('GET', '/openapi.json')).body as {
      paths: Record<
        string,
        Record<
          string,
          { tags: string[]; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }
        >
      >;
    };
    const admin = Object.entries(document.paths).filter(([path]) => path.startsWith(BASE));
    const operations = admin.flatMap(([, item]) => Object.values(item));
    expect(operations.length).toBeGreaterThanOrEqual(25);
    for (const operation of operations) {
      expect(operation.tags).toEqual(['admin']);
      const ok = operation.responses['200'] ?? operation.responses['201'];
      expect(ok?.content?.['application/json']?.example).toBeDefined();
    }
    expect(document.paths[`${BASE}/tokens/{name}/credits`]).toHaveProperty('post');
    expect(document.paths['/chatmodel/models']).toHaveProperty('get');
  });
});
