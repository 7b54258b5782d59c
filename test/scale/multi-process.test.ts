/**
 * The distributed mode with real processes on loopback: two API nodes that only accept and
 * watch, two workers that only work, PostgreSQL and Redis between them. 200 tasks across both
 * nodes, one worker killed with SIGKILL mid-way: every task finishes once, credits are exact in
 * balances and in usage rows (which the worker ending a task finalises), a stream on one node
 * follows a task run elsewhere, and a rate limit holds across both nodes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { Tokens } from '../../src/accounts/tokens.js';
import { provisionShared, type Provisioned } from '../support/backends.js';
import { freePort } from '../support/server.js';
import { startProcess } from '../support/processes.js';
import { ndjsonLines } from '../support/poll.js';

// Enough to keep both workers busy (16 at a time each) when one is killed, half-way: it dies
// with tasks leased, which the other runs once their lease ends.
const TASKS = 200;
const PRICE = 10;
const START_CREDITS = 10_000;

const dir = mkdtempSync(join(tmpdir(), 'switchyard-scale-'));
const children: ChildProcess[] = [];
let shared: Provisioned;
let db: Db;
let nodes: string[];
let workers: ChildProcess[];
let secret: string;
let tokenId: string;

function configFile(name: string, port: number, embedded: boolean): string {
  const path = join(dir, `${name}.yaml`);
  const { overrides } = shared;
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
      `prices: { tune.audios: ${PRICE} }`,
    ].join('\n'),
  );
  return path;
}

const post = (node: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${node}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The credits the usage row of each task's request holds, once the API node has recorded its answer. */
async function keptByUsage(taskIds: string[]): Promise<number[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const rows = await db
      .selectFrom('tasks')
      .innerJoin('usage', 'usage.trace_id', 'tasks.trace_id')
      .select(['tasks.id', 'usage.credits', 'usage.status'])
      .where('tasks.id', 'in', taskIds)
      .execute();
    const answered = rows.filter((r) => r.status === 200);
    if (answered.length === taskIds.length || Date.now() > until) {
      const kept = new Map(answered.map((r) => [r.id, Number(r.credits)]));
      return taskIds.map((id) => kept.get(id) ?? -1);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  shared = await provisionShared();
  db = await openDatabase(String(shared.overrides['database.url']));
  const created = await new Tokens(db).create({ name: 'scale', credits: START_CREDITS });
  secret = created.secret;
  tokenId = created.token.id;
  const ports = [await freePort(), await freePort()];
  nodes = ports.map((port) => `http://127.0.0.1:${port}`);
  const api = await Promise.all(ports.map((port, i) => startProcess(configFile(`api${i}`, port, false))));
  workers = await Promise.all([0, 1].map((i) => startProcess(configFile(`worker${i}`, 0, true), 'worker')));
  children.push(...api, ...workers);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await db?.destroy();
  await shared?.release();
});

describe('two API nodes and two workers', () => {
  it('streams, on node A, a task that a worker runs', async () => {
    const response = await post(
      nodes[0] as string,
      '/tune/audios',
      { action: 'generate', prompt: 'sleep=600 progress=2' },
      {
        accept: 'application/x-ndjson',
      },
    );
    const lines = await ndjsonLines(response);
    const states = lines.map((l) => (l.data as { state: string }[])[0]?.state);
    // A worker may take the task before node A first reads it: the stream starts where it is.
    expect(['pending', 'running']).toContain(states[0]);
    expect(states).toContain('running');
    expect(states.at(-1)).toBe('succeeded');
    expect(lines.some((l) => (l.data as { title?: string }[])[0]?.title === 'step 2 of 2')).toBe(true);
  });

  it('finishes 200 tasks exactly once with a worker killed mid-way, and keeps credits exact', async () => {
    const before = Number(
      (await db.selectFrom('accounts').select('credits').where('id', '=', tokenId).executeTakeFirst())
        ?.credits,
    );
    const submitted: string[] = [];
    let killed = false;
    for (let i = 0; i < TASKS; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          post(nodes[(i + j) % 2] as string, '/tune/audios', {
            action: 'generate',
            prompt: `sleep=${50 + ((i + j) % 7) * 40}`,
            async: true,
          }).then(async (r) => ((await r.json()) as { task_id: string }).task_id),
        ),
      );
      submitted.push(...batch);
      if (!killed && submitted.length >= TASKS / 2) {
        workers[0]?.kill('SIGKILL');
        killed = true;
      }
    }
    expect(new Set(submitted).size).toBe(TASKS);

    const until = Date.now() + 90_000;
    let rows: { id: string; state: string; credits_state: string | null }[] = [];
    while (Date.now() < until) {
      rows = await db
        .selectFrom('tasks')
        .select(['id', 'state', 'credits_state'])
        .where('id', 'in', submitted)
        .execute();
      if (rows.every((r) => r.state === 'succeeded')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(rows).toHaveLength(TASKS);
    expect(rows.filter((r) => r.state === 'succeeded')).toHaveLength(TASKS);
    expect(rows.every((r) => r.credits_state === 'settled')).toBe(true);
    const after = Number(
      (await db.selectFrom('accounts').select('credits').where('id', '=', tokenId).executeTakeFirst())
        ?.credits,
    );
    expect(before - after).toBe(TASKS * PRICE);
    // Each request's usage row was finalised by the worker process that ended its task.
    expect(await keptByUsage(submitted)).toEqual(submitted.map(() => PRICE));
  }, 120_000);

  it('a task failed by a worker process keeps nothing, in its usage row and in the balance', async () => {
    const failing = await new Tokens(db).create({ name: 'failing', credits: 50 });
    const answers = await Promise.all(
      [0, 1, 0, 1, 0].map((n) =>
        fetch(`${nodes[n] as string}/tune/audios`, {
          method: 'POST',
          headers: { authorization: `Bearer ${failing.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'generate', prompt: 'sleep=20 fail=upstream_error', async: true }),
        }).then(async (r) => ((await r.json()) as { task_id: string }).task_id),
      ),
    );
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const ended = await db.selectFrom('tasks').select('state').where('id', 'in', answers).execute();
      if (ended.every((t) => t.state === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await keptByUsage(answers)).toEqual([0, 0, 0, 0, 0]);
    const token = await db
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', failing.token.id)
      .executeTakeFirst();
    expect(Number(token?.credits)).toBe(50);
  });

  it('holds a rate limit across both nodes', async () => {
    const limited = await new Tokens(db).create({ name: 'limited', ratePerSecond: 5 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${nodes[i % 2] as string}/tune/tasks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${limited.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'retrieve_batch', limit: 1 }),
        }).then((r) => ({ node: i % 2, status: r.status })),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    // One second of requests (5), plus what refills while the 20 are answered.
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBeLessThanOrEqual(7);
    expect(new Set(answers.filter((a) => a.status === 429).map((a) => a.node))).toEqual(new Set([0, 1]));
  });
});
