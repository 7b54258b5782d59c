/**
 * One balance spent from two API nodes at once, on PostgreSQL + Redis with real processes: two
 * nodes that only answer and two workers that only work. A token whose credits cover a fraction
 * of the load receives charged searches and charged task submissions through both nodes, some of
 * each failing, while the workers refund the failed tasks. What the client was given (answered
 * searches, accepted tasks less the failed ones) is exactly what the ledger says was spent; the
 * balance never went below zero, no request was refunded twice, the balance equals its ledger
 * and no hold is left open.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { Tokens } from '../../src/accounts/tokens.js';
import { provisionShared, type Provisioned } from '../support/backends.js';
import { booksOf } from '../support/ledger-audit.js';
import { freePort } from '../support/server.js';
import { startProcess } from '../support/processes.js';

const REQUESTS = 600;
/** One request in three is a task submission, the rest are searches. */
const TASK_EVERY = 3;
/** Milliseconds between the starts of two requests: the load lasts long enough for refunds. */
const SPACING_MS = 3;
const SEARCH_PRICE = 1;
const TASK_PRICE = 5;
/** Covers under a quarter of what the load asks for. */
const START_CREDITS = 300;

const TERMINAL = ['succeeded', 'failed', 'expired'];

const dir = mkdtempSync(join(tmpdir(), 'switchyard-credits-nodes-'));
const children: ChildProcess[] = [];
let shared: Provisioned | undefined;
let db: Db | undefined;
let nodes: string[] = [];

function configFile(name: string, port: number, embedded: boolean): string {
  const path = join(dir, `${name}.yaml`);
  const overrides = shared?.overrides ?? {};
  writeFileSync(
    path,
    [
      `port: ${port}`,
      `data_dir: ${join(dir, name)}`,
      'log: { level: silent }',
      `database: { url: '${String(overrides['database.url'])}' }`,
      `redis: { url: '${String(overrides['redis.url'])}', prefix: '${String(overrides['redis.prefix'])}' }`,
      `workers: { embedded: ${embedded} }`,
      'tasks: { concurrency: 16, lease_seconds: 2 }',
      `prices: { serp.web: ${SEARCH_PRICE}, tune.audios: ${TASK_PRICE} }`,
    ].join('\n'),
  );
  return path;
}

beforeAll(async () => {
  shared = await provisionShared();
  db = await openDatabase(String(shared.overrides['database.url']));
  const ports = [await freePort(), await freePort()];
  nodes = ports.map((port) => `http://127.0.0.1:${port}`);
  const started = await Promise.all([
    ...ports.map((port, i) => startProcess(configFile(`api${i}`, port, false))),
    ...[0, 1].map((i) => startProcess(configFile(`worker${i}`, 0, true), 'worker')),
  ]);
  children.push(...started);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await db?.destroy();
  await shared?.release();
});

interface Sent {
  search: boolean;
  status: number;
  traceId: string;
  code?: string;
}

/** A search takes a moment; one in eight fails. */
function searchQuery(i: number): string {
  return `sleep=${10 + (i % 4) * 10}${i % 8 === 1 ? ' fail=upstream_error' : ''}`;
}

/** A task runs a moment; one in three fails and is refunded. */
function taskPrompt(i: number): string {
  const n = i / TASK_EVERY;
  return `sleep=${50 + (n % 4) * 50}${n % 3 === 1 ? ' fail=upstream_error' : ''}`;
}

describe('one balance spent through two API nodes', () => {
  it('gives the client exactly what the ledger charges, never below zero', async () => {
    const store = db as Db;
    const { token, secret } = await new Tokens(store).create({ name: 'nodes', credits: START_CREDITS });
    const send = async (i: number): Promise<Sent> => {
      await new Promise((r) => setTimeout(r, i * SPACING_MS));
      const search = i % TASK_EVERY !== 0;
      const response = await fetch(`${nodes[i % 2] as string}${search ? '/serp/web' : '/tune/audios'}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(
          search ? { query: searchQuery(i) } : { action: 'generate', prompt: taskPrompt(i), async: true },
        ),
      });
      const body = (await response.json()) as { error?: { code?: string } };
      return {
        search,
        status: response.status,
        traceId: response.headers.get('x-trace-id') ?? '',
        code: body.error?.code,
      };
    };
    const sent = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => send(i)));

    const until = Date.now() + 30_000;
    let tasks: { state: string; trace_id: string }[] = [];
    while (Date.now() < until) {
      tasks = await store
        .selectFrom('tasks')
        .select(['state', 'trace_id'])
        .where('token_id', '=', token.id)
        .execute();
      if (tasks.every((t) => TERMINAL.includes(t.state))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(tasks.filter((t) => !TERMINAL.includes(t.state))).toEqual([]);

    const searches = sent.filter((s) => s.search);
    const answered = searches.filter((s) => s.status === 200);
    const accepted = sent.filter((s) => !s.search && s.status === 200);
    const refunded = tasks.filter((t) => t.state !== 'succeeded').length;
    const usedUp = sent.filter((s) => s.code === 'used_up');
    console.info(
      `${answered.length} searches answered, ${accepted.length} tasks accepted, ${refunded} refunded, ` +
        `${usedUp.length} requests refused for want of credits`,
    );
    // Every request was answered, the ones that failed with what the test asked for or want of
    // credits; the load went past the balance on both kinds of request and on both nodes.
    expect(
      sent.filter((s) => s.status !== 200 && s.code !== 'used_up' && s.code !== 'upstream_error'),
    ).toEqual([]);
    expect(usedUp.some((s) => s.search)).toBe(true);
    expect(usedUp.some((s) => !s.search)).toBe(true);
    expect(tasks).toHaveLength(accepted.length);
    expect(refunded).toBeGreaterThan(0);

    const books = await booksOf(store, token.id);
    const spent = START_CREDITS - books.balance;
    expect(answered.length * SEARCH_PRICE + (accepted.length - refunded) * TASK_PRICE).toBe(spent);
    expect(books.lowest).toBeGreaterThanOrEqual(0);
    expect(books.balance).toBeGreaterThanOrEqual(0);
    expect(books.balance).toBe(books.ledgerSum);
    expect(books.holds).toEqual([]);
    const twice = [...books.byTrace].filter(([, c]) => c.refunds > 1 || c.charges > 1);
    expect(twice).toEqual([]);
    // Each answer's own entries: an answered search and a succeeded task keep their price, and
    // everything refused or failed keeps nothing.
    const none = { charges: 0, refunds: 0, expired: 0, net: 0 };
    for (const s of searches) {
      expect(books.byTrace.get(s.traceId)?.net ?? 0).toBe(s.status === 200 ? -SEARCH_PRICE : 0);
    }
    for (const task of tasks) {
      const { net } = books.byTrace.get(task.trace_id) ?? none;
      expect(net).toBe(task.state === 'succeeded' ? -TASK_PRICE : 0);
    }
  }, 90_000);
});
