/**
 * The server is killed with SIGKILL while 100 tasks are in flight, then started again: every task
 * reaches a terminal state, every callback arrives at least once, and no credit is lost or
 * charged twice. Submissions cut off by the kill are sent again with their idempotency key.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { openDatabase } from '../../src/store/database.js';
import { Tokens } from '../../src/accounts/tokens.js';
import { freePort } from '../support/server.js';
import { startProcess } from '../support/processes.js';

const TASKS = 100;
/** Submissions 10 ms apart and the kill half-way, 0.5 s in: tasks are live and some still unsent. */
const SPACING_MS = 10;
const PRICE = 10;
const START_CREDITS = 5000;

const dir = mkdtempSync(join(tmpdir(), 'switchyard-crash-'));
const configFile = join(dir, 'switchyard.yaml');
let child: ChildProcess | undefined;
let receiver: Server | undefined;

afterAll(() => {
  child?.kill('SIGKILL');
  receiver?.close();
});

describe('crash recovery', () => {
  it('finishes every task, calls back every one, and keeps credits exact after kill -9', async () => {
    const delivered = new Map<string, number>();
    let unverified = 0;
    let secret = '';
    receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        try {
          new Webhook(secret).verify(text, req.headers as Record<string, string>);
        } catch {
          unverified += 1;
        }
        const id = String((JSON.parse(text) as { task_id: string }).task_id);
        delivered.set(id, (delivered.get(id) ?? 0) + 1);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver?.listen(0, '127.0.0.1', r));
    const callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const port = await freePort();
    writeFileSync(
      configFile,
      [
        `port: ${port}`,
        `data_dir: ${dir}`,
        'log: { level: silent }',
        "outbound: { allow_cidrs: ['127.0.0.1/32'] }",
        'tasks: { concurrency: 16, lease_seconds: 3, poll_ms: 100 }',
        'callbacks: { backoff_seconds: [0.2, 0.5, 1, 1, 1], poll_ms: 100, timeout_ms: 1000 }',
        `prices: { tune.audios: ${PRICE} }`,
      ].join('\n'),
    );
    const db = await openDatabase(loadConfig({ file: configFile, env: {} }).database.url);
    const created = await new Tokens(db).create({ name: 'crash', credits: START_CREDITS });
    secret = created.token.webhookSecret;
    const url = `http://127.0.0.1:${port}/tune/audios`;
    const submit = (i: number) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${created.secret}`,
          'content-type': 'application/json',
          'idempotency-key': `crash-${i}`,
        },
        body: JSON.stringify({
          action: 'generate',
          prompt: `sleep=${50 + (i % 8) * 50}`,
          callback_url: callback,
        }),
      }).then(
        async (r) => (r.status === 200 ? ((await r.json()) as { task_id: string }).task_id : undefined),
        () => undefined,
      );

    child = await startProcess(configFile);
    const ids = new Map<number, string>();
    const first = Array.from({ length: TASKS }, (_, i) => i);
    const firstRound = first.map(async (i) => {
      await new Promise((r) => setTimeout(r, i * SPACING_MS));
      const id = await submit(i);
      if (id) ids.set(i, id);
    });
    await new Promise((r) => setTimeout(r, (TASKS * SPACING_MS) / 2));
    child.kill('SIGKILL');
    await Promise.all(firstRound);
    const answeredBeforeKill = ids.size;
    expect(answeredBeforeKill).toBeGreaterThan(0);
    expect(answeredBeforeKill).toBeLessThan(TASKS);
    // The kill must leave work behind, or recovery would not be tested.
    const left = await db
      .selectFrom('tasks')
      .select('state')
      .where('state', 'in', ['queued', 'running'])
      .execute();
    const undelivered = await db
      .selectFrom('deliveries')
      .select('id')
      .where('state', '!=', 'delivered')
      .execute();
    expect(left.length).toBeGreaterThan(0);
    console.info(
      `killed with ${answeredBeforeKill} submissions answered, ${left.length} tasks live, ${undelivered.length} callbacks owed`,
    );

    child = await startProcess(configFile);
    for (const i of first.filter((n) => !ids.has(n))) {
      const id = await submit(i);
      if (id) ids.set(i, id);
    }
    expect(ids.size).toBe(TASKS);

    const until = Date.now() + 60_000;
    let terminal = 0;
    while (Date.now() < until) {
      const rows = await db.selectFrom('tasks').select(['id', 'state']).execute();
      terminal = rows.filter((r) => ['succeeded', 'failed', 'expired'].includes(r.state)).length;
      if (terminal === TASKS && [...ids.values()].every((id) => delivered.has(id))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const rows = await db.selectFrom('tasks').select(['id', 'state', 'credits_state']).execute();
    expect(rows).toHaveLength(TASKS);
    expect(rows.filter((r) => r.state === 'succeeded')).toHaveLength(TASKS);
    expect(new Set(ids.values()).size).toBe(TASKS);
    for (const id of ids.values()) expect(delivered.get(id) ?? 0).toBeGreaterThanOrEqual(1);
    expect(unverified).toBe(0);
    const balance = await db
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', created.token.id)
      .executeTakeFirst();
    expect(Number(balance?.credits)).toBe(START_CREDITS - TASKS * PRICE);
    expect(rows.every((r) => r.credits_state === 'settled')).toBe(true);
    await db.destroy();
  }, 120_000);
});
