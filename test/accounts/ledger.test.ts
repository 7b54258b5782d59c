/**
 * The credit ledger, on SQLite and on PostgreSQL + Redis, after real requests: every change of a
 * balance is an entry and the entries sum to the balance. Many concurrent charged requests never
 * spend past the balance; a failed request and a failed task are refunded once; a hold whose
 * request never settled is given back by expiry; a database from before the ledger opens each
 * balance with an entry.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { Agent, request } from 'undici';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../src/store/migrations.js';
import type { Database } from '../../src/store/tables.js';
import { BACKENDS, provisionShared } from '../support/backends.js';
import { pollTask } from '../support/poll.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';

// Two thousand requests at once take seconds on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let tasks: TestServer;

  beforeAll(async () => {
    [server, tasks] = await Promise.all([
      startServer({ prices: { 'serp.web': 1, 'tune.personas': 2 } }, { backend }),
      startServer({ prices: { 'clip.videos': 5 } }, { backend, providers: testProviders() }),
    ]);
  });
  afterAll(() => Promise.all([server?.close(), tasks?.close()]));

  async function account(on: TestServer, credits: number) {
    const { token, secret } = await on.services.tokens.create({ name: `l${Math.random()}`, credits });
    const db = on.services.db;
    return {
      token,
      secret,
      balance: async () =>
        Number(
          (await db.selectFrom('tokens').select('credits').where('id', '=', token.id).executeTakeFirst())
            ?.credits,
        ),
      entries: () =>
        db.selectFrom('ledger').selectAll().where('token_id', '=', token.id).orderBy('id').execute(),
      holds: async () =>
        (await db.selectFrom('holds').selectAll().where('token_id', '=', token.id).execute()).length,
    };
  }

  const sum = (entries: { delta: number | string }[]) =>
    entries.reduce((total, e) => total + Number(e.delta), 0);

  it('lets exactly as many of 2,000 concurrent charged requests through as the balance covers', async () => {
    const payer = await account(server, 1500);
    // All sent at once, over 256 connections: 2,000 connects at once would overflow the listen
    // backlog of a loaded machine, which tests the kernel rather than the ledger.
    const connections = new Agent({ connections: 256 });
    const statuses = await Promise.all(
      Array.from({ length: 2000 }, async (_, i) => {
        const answer = await request(`${server.url}/serp/web`, {
          method: 'POST',
          headers: { authorization: `Bearer ${payer.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: `ledger ${i}` }),
          dispatcher: connections,
        });
        await answer.body.arrayBuffer();
        return answer.statusCode;
      }),
    );
    await connections.close();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1500);
    expect(statuses.filter((s) => s === 403)).toHaveLength(500);
    const entries = await payer.entries();
    expect(await payer.balance()).toBe(0);
    expect(sum(entries)).toBe(0);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(1500);
    expect(entries.at(-1)?.balance_after).toBe(0);
    expect(await payer.holds()).toBe(0);
  });

  it('refunds a failed request once, and keeps every entry with the balance after it', async () => {
    const payer = await account(server, 10);
    // Valid, and refused by the engine once the credits are held: no such audio.
    const failed = await server.post(
      '/tune/personas',
      { audio_id: 'no-such-audio', name: 'x' },
      payer.secret,
    );
    expect(failed.status, failed.text).toBe(400);
    const good = await server.post('/serp/web', { query: 'ledger' }, payer.secret);
    expect(good.status).toBe(200);
    const entries = await payer.entries();
    expect(entries.map((e) => [e.kind, Number(e.delta), Number(e.balance_after), e.trace_id])).toEqual([
      ['topup', 10, 10, null],
      ['charge', -2, 8, failed.headers.get('x-trace-id')],
      ['refund', 2, 10, failed.headers.get('x-trace-id')],
      ['charge', -1, 9, good.headers.get('x-trace-id')],
    ]);
    expect(sum(entries)).toBe(await payer.balance());
    for (const entry of entries) expect(entry.actor).toBe('system');
  });

  it('charges a task at submission and refunds it once when it fails', async () => {
    const payer = await account(tasks, 12);
    const submit = (prompt: string) =>
      tasks.post('/clip/videos', { action: 'text2video', prompt, async: true }, payer.secret);
    const [ok, failing] = await Promise.all([submit('sleep=10'), submit('sleep=10 fail=api_error')]);
    for (const answer of [ok, failing]) expect(answer.status, answer.text).toBe(200);
    await pollTask(tasks, 'clip', ok.body.task_id as string, payer.secret);
    await pollTask(tasks, 'clip', failing.body.task_id as string, payer.secret);
    expect(await payer.balance()).toBe(7);
    const entries = await payer.entries();
    expect(entries.map((e) => e.kind).sort()).toEqual(['charge', 'charge', 'refund', 'topup']);
    const refund = entries.find((e) => e.kind === 'refund');
    expect(refund?.trace_id).toBe(failing.headers.get('x-trace-id'));
    expect(sum(entries)).toBe(7);
  });

  it('gives back a hold whose request never settled, once, when it expires', async () => {
    const payer = await account(server, 4);
    const reservation = await server.services.credits.reserve(payer.token, 3, `lost-${Math.random()}`);
    expect(reservation.amount).toBe(3);
    expect(await payer.balance()).toBe(1);
    await new Promise((r) => setTimeout(r, 5));
    expect(await server.services.credits.expire(1)).toBeGreaterThanOrEqual(1);
    // The request comes back after all: its hold is gone, so nothing is given back twice.
    await reservation.refund();
    expect(await payer.balance()).toBe(4);
    const entries = await payer.entries();
    expect(entries.map((e) => e.kind)).toEqual(['topup', 'charge', 'refund']);
    expect(entries[2]?.note).toBe('the request ended without being answered');
    expect(sum(entries)).toBe(4);
  });
});

/** A token row as the schema before the ledger holds it. */
const tokenRow = (id: string, credits: number | null) => ({
  id,
  name: id,
  token_hash: `hash-${id}`,
  operations: null,
  expires_at: null,
  credits,
  rate_per_second: null,
  max_concurrency: null,
  webhook_secret: 'whsec',
  created_at: 1,
  revoked_at: null,
});

describe('a database from before the ledger', () => {
  it('opens each limited balance with an entry equal to it', async () => {
    const sqlite = new SqliteDatabase(join(mkdtempSync(join(tmpdir(), 'switchyard-ledger-')), 'old.db'));
    const old = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrate(old as Kysely<unknown>, '0007_usage_per_trace');
    await old
      .insertInto('tokens')
      .values([tokenRow('a', 120), tokenRow('b', 0), tokenRow('c', null)])
      .execute();
    await migrate(old as Kysely<unknown>);
    const entries = await old.selectFrom('ledger').selectAll().orderBy('token_id').execute();
    expect(
      entries.map((e) => [e.token_id, e.kind, Number(e.delta), Number(e.balance_after), e.actor]),
    ).toEqual([
      ['a', 'opening', 120, 120, 'system'],
      ['b', 'opening', 0, 0, 'system'],
    ]);
    await old.destroy();
  });

  it('is the same on PostgreSQL', async () => {
    const shared = await provisionShared();
    const pool = new pg.Pool({ connectionString: shared.overrides['database.url'] as string });
    const old = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      await migrate(old as Kysely<unknown>, '0007_usage_per_trace');
      await old
        .insertInto('tokens')
        .values([tokenRow('p', 75), tokenRow('q', null)])
        .execute();
      await migrate(old as Kysely<unknown>);
      const entries = await old.selectFrom('ledger').selectAll().execute();
      expect(entries.map((e) => [e.token_id, e.kind, Number(e.delta), Number(e.balance_after)])).toEqual([
        ['p', 'opening', 75, 75],
      ]);
    } finally {
      await old.destroy();
      await shared.release();
    }
  });
});
