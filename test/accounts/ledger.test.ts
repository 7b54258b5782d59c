/**
 * The credit ledger, on SQLite and on PostgreSQL + Redis, after real requests: every change of a
 * balance is an entry and the entries sum to the balance. Many concurrent charged requests never
 * spend past the balance; a failed request and a failed task are refunded once; a hold whose
 * request never settled is given back by expiry; a streamed answer holds before it starts; on
 * SQLite a request is admitted in memory and its answer charged once, or refused when its balance
 * was spent elsewhere meanwhile; a database from before the ledger opens each balance with an
 * entry.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Agent, request } from 'undici';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { Database } from '../../src/store/tables.js';
import { BACKENDS, poolOn, provisionShared } from '../support/backends.js';
import { pollTask } from '../support/poll.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';

// Two thousand requests at once take seconds on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

/** A new token on `on` with `credits`, and what the database says of its balance and ledger. */
async function account(on: TestServer, credits: number) {
  const { token, secret } = await on.services.tokens.create({ name: `l${Math.random()}`, credits });
  const db = on.services.db;
  return {
    token,
    secret,
    balance: async () =>
      Number(
        (await db.selectFrom('accounts').select('credits').where('id', '=', token.id).executeTakeFirst())
          ?.credits,
      ),
    entries: () =>
      db.selectFrom('ledger').selectAll().where('account_id', '=', token.accountId).orderBy('id').execute(),
    holds: async () =>
      (await db.selectFrom('holds').selectAll().where('account_id', '=', token.accountId).execute()).length,
  };
}

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
    // PostgreSQL holds the price before the work and gives it back; SQLite charges only an answer.
    const heldAndGivenBack: [string, number, number, string | null][] =
      backend === 'embedded'
        ? []
        : [
            ['charge', -2, 8, failed.headers.get('x-trace-id')],
            ['refund', 2, 10, failed.headers.get('x-trace-id')],
          ];
    expect(entries.map((e) => [e.kind, Number(e.delta), Number(e.balance_after), e.trace_id])).toEqual([
      ['topup', 10, 10, null],
      ...heldAndGivenBack,
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
    // As a streamed answer does before its first event.
    await reservation.secure();
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

  it('holds a streamed answer before it starts and gives back what it did not use', async () => {
    const payer = await account(server, 10);
    const trace = `stream-${Math.random()}`;
    const reservation = await server.services.credits.reserve(payer.token, 6, trace);
    await reservation.secure();
    expect(await payer.balance()).toBe(4);
    expect(await payer.holds()).toBe(1);
    await reservation.settle(2);
    expect(await payer.balance()).toBe(8);
    const entries = await payer.entries();
    expect(entries.map((e) => [e.kind, Number(e.delta), e.trace_id])).toEqual([
      ['topup', 10, null],
      ['charge', -6, trace],
      ['refund', 4, trace],
    ]);
    expect(await payer.holds()).toBe(0);
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
      .values([tokenRow('a', 120), tokenRow('b', 0), tokenRow('c', null)] as never)
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
    const pool = poolOn(shared.overrides['database.url'] as string);
    const old = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      await migrate(old as Kysely<unknown>, '0007_usage_per_trace');
      await old
        .insertInto('tokens')
        .values([tokenRow('p', 75), tokenRow('q', null)] as never)
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

describe('SQLite: requests admitted in memory', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({}, { backend: 'embedded' });
  });
  afterAll(() => server?.close());

  it('admits a request in memory and charges what it cost, once, before its answer', async () => {
    const payer = await account(server, 10);
    const credits = server.services.credits;
    const trace = `admitted-${Math.random()}`;
    const first = await credits.reserve(payer.token, 6, trace);
    // Nothing is written before the answer; the 6 in flight count against the balance.
    expect(await payer.balance()).toBe(10);
    await expect(credits.reserve(payer.token, 5, 'second')).rejects.toMatchObject({ code: 'used_up' });
    const small = await credits.reserve(payer.token, 4, 'small');
    await small.refund();
    await first.settle(2);
    await first.refund();
    expect(await payer.balance()).toBe(8);
    // What the first did not use is free again.
    const next = await credits.reserve(payer.token, 8, 'next');
    // A top-up counts at once, though the balance was read a moment ago.
    await server.services.admin.tokens.credit(payer.token.id, 5, 'top-up', { name: 'test', id: null });
    const more = await credits.reserve(payer.token, 5, 'more');
    await Promise.all([next.refund(), more.refund()]);
    const entries = await payer.entries();
    expect(entries.map((e) => [e.kind, Number(e.delta), Number(e.balance_after), e.trace_id])).toEqual([
      ['topup', 10, 10, null],
      ['charge', -2, 8, trace],
      ['topup', 5, 13, null],
    ]);
    expect(await payer.holds()).toBe(0);
  });

  it('refuses the answer of an admitted request whose balance was spent elsewhere meanwhile', async () => {
    const payer = await account(server, 10);
    const credits = server.services.credits;
    const admitted = await credits.reserve(payer.token, 6, `raced-${Math.random()}`);
    // An administrator's deduction does not see what this process admitted.
    await server.services.admin.tokens.credit(payer.token.id, -7, 'raced', { name: 'test', id: null });
    await expect(admitted.settle(6)).rejects.toMatchObject({ code: 'used_up' });
    await admitted.refund();
    expect(await payer.balance()).toBe(3);
    expect((await payer.entries()).map((e) => e.kind)).toEqual(['topup', 'adjustment']);
    // Released: the 3 left are admitted again.
    const after = await credits.reserve(payer.token, 3, 'after');
    await after.refund();
    // A stream is held before its first byte: refused the same way when the balance went.
    const streamed = await credits.reserve(payer.token, 3, 'streamed');
    await server.services.admin.tokens.credit(payer.token.id, -1, 'raced', { name: 'test', id: null });
    await expect(streamed.secure()).rejects.toMatchObject({ code: 'used_up' });
    await streamed.refund();
    expect(await payer.balance()).toBe(2);
    expect(await payer.holds()).toBe(0);
  });
});
