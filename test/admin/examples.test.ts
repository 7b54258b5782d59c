/**
 * The admin API's example answers (src/admin/examples.ts, shown in the OpenAPI document) against
 * the real ones: every route of the table is called on a real server holding a token, requests,
 * ledger entries, tasks, an identity and an upstream channel, and its answer must have the
 * example's members with the example's types, so that an example cannot drift from the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, type AdminRoute } from '../../src/admin/routes.js';
import { EXAMPLES } from '../../src/admin/examples.js';
import { startFakeAccount, type FakeAccount } from '../support/fake-account.js';
import { pollTask } from '../support/poll.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';

const BASE = '/admin/api/v1';

/**
 * Members whose keys are data rather than shape: the price table's keys are price keys; an
 * engine's settings, an audit entry's detail and a task's kept request depend on the engine, the
 * action and the operation. Only their being objects is compared.
 */
const RECORDS = new Set(['$.prices', '$.engines[].settings', '$.rows[].detail', '$.request']);

const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Where `real` differs from `example` in shape: a member one has and the other lacks, or a value
 * of another type. A null on either side stands for a member that may be null, whose other type
 * one of the two shows; every item of a list is compared with the example's first.
 */
function differences(example: unknown, real: unknown, path = '$'): string[] {
  if (example === null || real === null) return [];
  if (kind(example) !== kind(real))
    return [`${path}: ${kind(example)} in the example, ${kind(real)} in the answer`];
  if (Array.isArray(example) && Array.isArray(real)) {
    const [first] = example;
    return first === undefined ? [] : real.flatMap((item) => differences(first, item, `${path}[]`));
  }
  if (typeof example !== 'object' || RECORDS.has(path)) return [];
  const shown = example as Record<string, unknown>;
  const answered = real as Record<string, unknown>;
  return [...new Set([...Object.keys(shown), ...Object.keys(answered)])].flatMap((key) => {
    if (!(key in answered)) return [`${path}.${key}: in the example, not in the answer`];
    if (!(key in shown)) return [`${path}.${key}: in the answer, not in the example`];
    return differences(shown[key], answered[key], `${path}.${key}`);
  });
}

let server: TestServer;
let upstream: FakeAccount;
let admin: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${BASE}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

beforeAll(async () => {
  upstream = await startFakeAccount();
  server = await startServer(
    {
      prices: { 'serp.web': 1, 'clip.videos': 5 },
      'outbound.allow_private': true,
      channels: [
        {
          name: 'openai-main',
          capability: 'chat',
          type: 'openai-compatible',
          base_url: upstream.baseUrl,
          api_key: 'sk-example',
          models: ['chatmodel-*'],
        },
      ],
    },
    { providers: testProviders() },
  );
  admin = (await server.services.tokens.create({ name: 'ops', role: 'admin' })).secret;
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

/** The route's request, in the order the table runs them: each may need what an earlier made. */
type Request = { path: string; body?: unknown };

describe('admin examples', () => {
  it('match the real answer of every admin route in members and types', async () => {
    const created = (
      await call('POST', '/tokens', {
        name: 'acme',
        credits: 1000,
        budgets: [{ credits: 900, period: 'day' }],
      })
    ).body as {
      token: string;
    };
    const client = created.token;
    await server.post('/serp/web', { query: 'one' }, client);
    // A task that would run ten minutes, with a callback: the one cancelled (and sent again).
    const hanging = await server.post(
      '/clip/videos',
      { action: 'text2video', prompt: 'hang', callback_url: 'http://127.0.0.1:9/hook' },
      client,
    );
    const taskId = hanging.body.task_id as string;
    await pollTask(server, 'clip', taskId, client, (t) => t.state === 'running');
    await server.services.usage.flush();
    const enrolled = (await call('POST', '/identities', { name: '张三丰', id_number: '11010519491231002X' }))
      .body as { id: string };
    const batch = ((await call('POST', '/codes', { credits: 500, count: 2 })).body as { batch: string })
      .batch;

    const requests: Record<string, Request> = {
      'GET /accounts': { path: '/accounts' },
      'POST /accounts': {
        path: '/accounts',
        body: {
          name: 'acme-corp',
          credits: 5000,
          low_balance: 1000,
          budgets: [{ credits: 500, period: 'day' }],
        },
      },
      'GET /accounts/:name': { path: '/accounts/acme-corp' },
      'PATCH /accounts/:name': {
        path: '/accounts/acme-corp',
        body: { budgets: [{ credits: 900, period: 'week' }] },
      },
      'POST /accounts/:name/credits': {
        path: '/accounts/acme-corp/credits',
        body: { delta: 100, note: 'invoice 43' },
      },
      'GET /tokens': { path: '/tokens' },
      'POST /tokens': { path: '/tokens', body: { name: 'other', credits: 10 } },
      'GET /tokens/:name': { path: '/tokens/acme' },
      'PATCH /tokens/:name': { path: '/tokens/acme', body: { rate_per_second: 20 } },
      'POST /tokens/:name/rotate-secret': { path: '/tokens/acme/rotate-secret', body: {} },
      'POST /tokens/:name/regenerate': { path: '/tokens/acme/regenerate', body: {} },
      'POST /tokens/:name/credits': {
        path: '/tokens/acme/credits',
        body: { delta: 500, note: 'invoice 42' },
      },
      'GET /usage': { path: '/usage?group_by=token,operation,day&from=2020-01-01T00:00:00Z' },
      'GET /requests': { path: '/requests' },
      'GET /ledger': { path: '/ledger' },
      'GET /tasks': { path: '/tasks' },
      'GET /tasks/:id': { path: `/tasks/${taskId}` },
      'POST /tasks/:id/cancel': { path: `/tasks/${taskId}/cancel`, body: {} },
      'POST /tasks/:id/redeliver': { path: `/tasks/${taskId}/redeliver`, body: {} },
      'GET /identities': { path: '/identities' },
      'POST /identities': { path: '/identities', body: { name: '李四', id_number: '110105194912310037' } },
      'PATCH /identities/:id': { path: `/identities/${enrolled.id}`, body: { name: '王五' } },
      'DELETE /identities/:id': { path: `/identities/${enrolled.id}` },
      'GET /channels': { path: '/channels' },
      'POST /channels/:id/probe': { path: '/channels/openai-main/probe', body: {} },
      'POST /channels/:id/disable': { path: '/channels/openai-main/disable', body: {} },
      'POST /channels/:id/enable': { path: '/channels/openai-main/enable', body: {} },
      'GET /overview': { path: '/overview' },
      'POST /codes': {
        path: '/codes',
        body: { credits: 500, count: 2, expires_at: '2099-01-01T00:00:00Z', note: 'launch week' },
      },
      'GET /codes': { path: '/codes' },
      'DELETE /codes/:batch': { path: `/codes/${batch}` },
      'GET /audit': { path: '/audit' },
      'GET /settings': { path: '/settings' },
      'DELETE /tokens/:name': { path: '/tokens/other' },
    };
    const key = (route: AdminRoute) => `${route.method} ${route.url}`;
    // A route added to the table without a request here fails, rather than going unchecked.
    expect(Object.keys(requests).sort()).toEqual(ADMIN_ROUTES.map(key).sort());

    const found: Record<string, string[]> = {};
    for (const [name, request] of Object.entries(requests)) {
      const route = ADMIN_ROUTES.find((r) => key(r) === name) as AdminRoute;
      const answer = await call(route.method, request.path, request.body);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      const drift = differences(EXAMPLES[route.example], answer.body);
      if (drift.length > 0) found[`${name} (example ${route.example})`] = [...new Set(drift)];
    }
    expect(found).toEqual({});
  });
});

describe('admin route summaries', () => {
  it('say that a probe sends an upstream its key, as the scheduled probes do', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const summary = document.paths[`${BASE}/channels/{id}/probe`]?.post?.summary;
    expect(summary).toMatch(/with its key/);
    expect(summary).not.toMatch(/without its key/);
  });
});
