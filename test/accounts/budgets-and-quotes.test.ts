/**
 * Budgets and quotes over HTTP, on SQLite and on PostgreSQL + Redis.
 * - Budget windows on an account reset at midnight of the billing time zone (Asia/Shanghai here),
 *   read from a controlled clock: a request past a window is refused 403 `used_up` naming the
 *   window and its reset, and `GET /v1/account` shows each window's use.
 * - A video is quoted at submission by its seconds and resolution band: 10 s at 1080p more than
 *   5 s at 720p. A price change while it runs leaves its quote alone, and its failure refunds the
 *   quote, once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';
import { jsonCall } from '../support/json-call.js';
import type { Price } from '../../src/config/schema.js';

vi.setConfig({ testTimeout: 60_000 });

const BASE = '/admin/api/v1';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startServer(
      {
        'billing.time_zone': 'Asia/Shanghai',
        'outbound.allow_private': true,
        prices: {
          'serp.web': 1,
          'clip.videos': { default: 0, per_second: { '720p': 3, '1080p': 6 } },
        },
      },
      { backend, providers: testProviders() },
    );
    admin = (await server.services.tokens.create({ name: 'ops', role: 'admin' })).secret;
  });
  afterAll(() => server?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const call = (method: string, path: string, token: string, body?: unknown) =>
    jsonCall(server.url, method, path, token, body);

  it('refuses past a budget window, naming it and its reset, and lets the next window spend', async () => {
    // 23:00 in Shanghai: the day ends in an hour, the month on 1 December at 00:00 there.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-29T15:00:00Z') });
    const budgets = [
      { credits: 3, period: 'day' },
      { credits: 5, period: 'month' },
    ];
    expect(
      (await call('POST', `${BASE}/accounts`, admin, { name: 'shop', credits: 100, budgets })).status,
    ).toBe(201);
    const key = (await call('POST', `${BASE}/tokens`, admin, { name: 'shop-key', account: 'shop' })).body
      .token as string;
    const search = () => call('POST', '/serp/web', key, { query: 'lamps' });
    for (let i = 0; i < 3; i += 1) expect((await search()).status).toBe(200);
    const refused = await search();
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'used_up' });
    expect((refused.body.error as { message: string }).message).toMatch(
      /day budget of account shop \(3 credits\).*resets at 2026-11-29T16:00:00\.000Z/,
    );
    expect((await call('GET', '/v1/account', key)).body).toMatchObject({
      balance: 97,
      budgets: [
        {
          owner: 'account',
          period: 'day',
          credits: 3,
          used: 3,
          remaining: 0,
          resets_at: '2026-11-29T16:00:00.000Z',
        },
        {
          owner: 'account',
          period: 'month',
          credits: 5,
          used: 3,
          remaining: 2,
          resets_at: '2026-11-30T16:00:00.000Z',
        },
      ],
    });

    // Past midnight in Shanghai: a new day window; the month's still counts what was spent.
    vi.setSystemTime(Date.parse('2026-11-29T16:00:01Z'));
    expect((await search()).status).toBe(200);
    expect((await search()).status).toBe(200);
    const month = await search();
    expect(month.status).toBe(403);
    expect((month.body.error as { message: string }).message).toMatch(
      /month budget of account shop \(5 credits\).*resets at 2026-11-30T16:00:00\.000Z/,
    );
    expect((await call('GET', `${BASE}/accounts/shop`, admin)).body).toMatchObject({
      balance: 95,
      budgets: [
        { period: 'day', used: 2, remaining: 1 },
        { period: 'month', used: 5, remaining: 0 },
      ],
    });
  });

  it('quotes a video by seconds and band, keeps the quote through a price change, refunds it once', async () => {
    const made = await call('POST', `${BASE}/tokens`, admin, { name: 'studio', credits: 1000 });
    const key = made.body.token as string;
    const balance = async () => (await call('GET', '/v1/account', key)).body.balance;
    const submit = (body: Record<string, unknown>) =>
      call('POST', '/clip/videos', key, {
        action: 'text2video',
        callback_url: 'http://127.0.0.1:9/hook',
        ...body,
      });
    const long = await submit({ prompt: 'hang', duration: 10, mode: 'pro' });
    expect(long.status, JSON.stringify(long.body)).toBe(200);
    expect(await balance()).toBe(940);
    const short = await submit({ prompt: 'hang', duration: 5 });
    expect(await balance()).toBe(925);
    const taskOf = async (id: string) => (await call('GET', `${BASE}/tasks/${id}`, admin)).body;
    const longTask = await taskOf(long.body.task_id as string);
    expect(longTask).toMatchObject({
      credits: 60,
      quote: { credits: 60, basis: '10 s of 1080p at 6/s (60)' },
    });
    expect(await taskOf(short.body.task_id as string)).toMatchObject({
      credits: 15,
      quote: { credits: 15, basis: '5 s of 720p at 3/s (15)' },
    });
    const logged = await call('GET', `${BASE}/requests?token=studio`, admin);
    expect((logged.body.rows as { quote: number }[]).map((r) => r.quote).sort()).toEqual([15, 60]);

    // The operator doubles 1080p while the long one runs: new requests pay it, the running one not.
    const clip = server.config.prices['clip.videos'] as Exclude<Price, number>;
    clip.per_second!['1080p'] = 12;
    try {
      const later = await submit({ prompt: 'hang', duration: 10, mode: 'pro' });
      expect((await taskOf(later.body.task_id as string)).quote).toMatchObject({ credits: 120 });
      expect(await balance()).toBe(805);
      for (const task of [long, short, later])
        expect(
          (await call('POST', `${BASE}/tasks/${String(task.body.task_id)}/cancel`, admin, {})).status,
        ).toBe(200);
    } finally {
      clip.per_second!['1080p'] = 6;
    }
    expect(await balance()).toBe(1000);
    expect((await taskOf(long.body.task_id as string)).quote).toMatchObject({ credits: 60 });
    const ledger = await call('GET', `${BASE}/ledger?token=studio`, admin);
    const refunds = (ledger.body.rows as { kind: string; delta: number; trace_id: string }[]).filter(
      (r) => r.kind === 'refund',
    );
    expect(refunds.map((r) => r.delta).sort((a, b) => a - b)).toEqual([15, 60, 120]);
    // A second cancel refunds nothing more.
    await call('POST', `${BASE}/tasks/${String(long.body.task_id)}/cancel`, admin, {});
    expect(await balance()).toBe(1000);
  });
});
