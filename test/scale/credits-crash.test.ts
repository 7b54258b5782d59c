/**
 * Credits across a crash, on SQLite and on PostgreSQL + Redis: a server is killed with SIGKILL in
 * the middle of a burst of charged synchronous searches and charged task submissions, then
 * started again on the same database with a hold lifetime of one second. Once its workers have
 * ended every task and its sweep has given back the holds of the requests that died, the books
 * are exact: an answered search kept its price once, a search that failed kept nothing, a search
 * cut off by the kill kept nothing unless its charge was settled just before the kill, every
 * hold the dead process left (PostgreSQL holds a search's price before its work; SQLite writes
 * only its charge, before its answer) was refunded once, a failed or expired task was refunded once and
 * a succeeded one charged once, and the balance is the sum of its ledger and never went below
 * zero.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { Tokens } from '../../src/accounts/tokens.js';
import { BACKENDS, provision, type Provisioned } from '../support/backends.js';
import { booksOf } from '../support/ledger-audit.js';
import { freePort } from '../support/server.js';
import { startProcess } from '../support/processes.js';

/** At most; the burst stops at the kill. */
const REQUESTS = 1000;
/** One request in four is a task submission, the rest are searches. */
const TASK_EVERY = 4;
/** Milliseconds between the starts of two requests of the burst. */
const SPACING_MS = 3;
/**
 * The kill comes once this many searches were answered and tasks accepted, while later ones are
 * in flight: on a loaded machine a fixed moment could come before the first answer.
 */
const ANSWERED_BEFORE_KILL = 20;
const ACCEPTED_BEFORE_KILL = 5;
const SEARCH_PRICE = 2;
const TASK_PRICE = 5;
const START_CREDITS = 10_000;

interface Sent {
  search: boolean;
  /** Absent when no answer came back (the process died first). */
  status?: number;
  traceId?: string;
  taskId?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A search sleeps for a while; one in ten fails. */
function searchQuery(i: number): string {
  return `sleep=${30 + (i % 6) * 30}${i % 10 === 1 ? ' fail=upstream_error' : ''}`;
}

/** A task runs for a while; one in five fails, one in seven runs until its deadline. */
function taskPrompt(i: number): string {
  const n = i / TASK_EVERY;
  if (n % 7 === 3) return 'hang';
  return `sleep=${100 + (n % 5) * 150}${n % 5 === 2 ? ' fail=upstream_error' : ''}`;
}

const TERMINAL = ['succeeded', 'failed', 'expired'];

describe.each(BACKENDS)('%s', (backend) => {
  let shared: Provisioned | undefined;
  let child: ChildProcess | undefined;
  let db: Db | undefined;

  afterEach(async () => {
    child?.kill('SIGKILL');
    await db?.destroy();
    await shared?.release();
  });

  it('keeps the books exact when the server dies mid-burst and its holds expire', async () => {
    shared = await provision(backend);
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-credits-crash-'));
    const configFile = join(dir, 'switchyard.yaml');
    const port = await freePort();
    const { overrides } = shared;
    const configure = (holdSeconds: number) =>
      writeFileSync(
        configFile,
        [
          `port: ${port}`,
          `data_dir: ${dir}`,
          'log: { level: silent }',
          ...(backend === 'embedded'
            ? []
            : [
                `database: { url: '${String(overrides['database.url'])}' }`,
                `redis: { url: '${String(overrides['redis.url'])}', prefix: '${String(overrides['redis.prefix'])}' }`,
              ]),
          'tasks: { concurrency: 16, lease_seconds: 2, poll_ms: 100, expires_seconds: 5 }',
          // A hold must outlast every synchronous wait (the configuration refuses it otherwise).
          `limits: { hold_seconds: ${holdSeconds}, sync_wait_seconds: ${Math.min(600, holdSeconds - 1)}, mcp_wait_seconds: ${Math.min(50, holdSeconds - 1)} }`,
          `prices: { serp.web: ${SEARCH_PRICE}, tune.audios: ${TASK_PRICE} }`,
        ].join('\n'),
      );
    // Before the kill no hold may expire: a loaded machine can take seconds to answer a search,
    // and an answer whose hold expired first is free by design.
    configure(3600);
    db = await openDatabase(loadConfig({ file: configFile, env: {} }).database.url);
    const { token, secret } = await new Tokens(db).create({ name: 'crash', credits: START_CREDITS });

    let killed = false;
    let answeredSoFar = 0;
    let acceptedSoFar = 0;
    let enough = () => {};
    const enoughAnswered = new Promise<void>((r) => (enough = r));
    const send = async (i: number): Promise<Sent> => {
      const search = i % TASK_EVERY !== 0;
      const sent: Sent = { search };
      try {
        const response = await fetch(`http://127.0.0.1:${port}${search ? '/serp/web' : '/tune/audios'}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify(
            search ? { query: searchQuery(i) } : { action: 'generate', prompt: taskPrompt(i), async: true },
          ),
        });
        sent.status = response.status;
        sent.traceId = response.headers.get('x-trace-id') ?? undefined;
        if (search && response.status < 300) answeredSoFar += 1;
        if (!search && response.status === 200) acceptedSoFar += 1;
        if (answeredSoFar >= ANSWERED_BEFORE_KILL && acceptedSoFar >= ACCEPTED_BEFORE_KILL) enough();
        const body = (await response.json().catch(() => ({}))) as { task_id?: string };
        sent.taskId = body.task_id;
      } catch {
        // No answer: the server died before it sent one.
      }
      return sent;
    };

    child = await startProcess(configFile);
    const began = Date.now();
    const sending: Promise<Sent>[] = [];
    const burst = (async () => {
      for (let i = 0; i < REQUESTS && !killed; i += 1) {
        sending.push(send(i));
        await sleep(SPACING_MS);
      }
    })();
    await Promise.race([enoughAnswered, burst]);
    const killedAt = Date.now() - began;
    const dead = new Promise((r) => child?.once('exit', r));
    child.kill('SIGKILL');
    killed = true;
    await burst;
    const sent = await Promise.all(sending);
    await dead;

    const searches = sent.filter((s) => s.search);
    const answered = searches.filter((s) => s.status !== undefined && s.status < 300);
    const refused = searches.filter((s) => s.status !== undefined && s.status >= 300);
    const accepted = sent.filter((s) => !s.search && s.status === 200);
    const cutOff = sent.filter((s) => s.status === undefined).length;
    const atKill = await booksOf(db, token.id);
    const live = await db
      .selectFrom('tasks')
      .select('id')
      .where('token_id', '=', token.id)
      .where('state', 'not in', TERMINAL)
      .execute();
    console.info(
      `${backend}: killed ${killedAt} ms into the burst: ${answered.length} searches answered, ${refused.length} refused, ` +
        `${accepted.length} tasks accepted, ${cutOff} requests cut off; ` +
        `${atKill.holds.length} holds open, ${live.length} tasks live`,
    );
    // The kill must leave answered and unanswered requests and live tasks behind; on PostgreSQL
    // open holds too, while on SQLite a search in flight has written nothing yet.
    expect(answered.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    expect(cutOff).toBeGreaterThan(0);
    if (backend === 'embedded') expect(atKill.holds).toEqual([]);
    else expect(atKill.holds.length).toBeGreaterThan(0);
    expect(live.length).toBeGreaterThan(0);

    configure(2);
    child = await startProcess(configFile);
    const until = Date.now() + 30_000;
    let tasks: { id: string; state: string; trace_id: string }[] = [];
    let books = atKill;
    while (Date.now() < until) {
      tasks = await db
        .selectFrom('tasks')
        .select(['id', 'state', 'trace_id'])
        .where('token_id', '=', token.id)
        .execute();
      books = await booksOf(db, token.id);
      if (tasks.every((t) => TERMINAL.includes(t.state)) && books.holds.length === 0) break;
      await sleep(200);
    }
    expect(tasks.filter((t) => !TERMINAL.includes(t.state))).toEqual([]);
    expect(books.holds).toEqual([]);

    const none = { charges: 0, refunds: 0, expired: 0, net: 0 };
    const creditsOf = (traceId: string) => books.byTrace.get(traceId) ?? none;

    // Every task the client was told of exists; each one's price was taken once and, unless it
    // succeeded, given back once.
    const taskIds = new Set(tasks.map((t) => t.id));
    for (const s of accepted) expect(taskIds.has(s.taskId ?? '')).toBe(true);
    const taskTraces = new Set(tasks.map((t) => t.trace_id));
    for (const task of tasks) {
      const refunds = task.state === 'succeeded' ? 0 : 1;
      expect({ task: task.state, ...creditsOf(task.trace_id) }).toEqual({
        task: task.state,
        charges: 1,
        refunds,
        expired: 0,
        net: -TASK_PRICE + refunds * TASK_PRICE,
      });
    }

    // An answered search kept its price, once; a refused one kept nothing.
    for (const s of answered) {
      expect(creditsOf(s.traceId ?? '')).toEqual({ charges: 1, refunds: 0, expired: 0, net: -SEARCH_PRICE });
    }
    for (const s of refused) expect(creditsOf(s.traceId ?? '').net).toBe(0);

    // Every hold the dead process left was given back by the sweep, once; no other was.
    const expiredTraces = [...books.byTrace].filter(([, c]) => c.expired > 0).map(([trace]) => trace);
    expect(expiredTraces.sort()).toEqual([...atKill.holds].sort());

    // A search cut off by the kill kept nothing, unless its settlement committed just before the
    // kill and only the sending of its answer was lost: never more than its price, never twice.
    const known = new Set([...answered, ...refused].map((s) => s.traceId));
    const unanswered = [...books.byTrace].filter(([trace]) => !taskTraces.has(trace) && !known.has(trace));
    for (const [, c] of unanswered) {
      expect(c.charges).toBe(1);
      expect(c.refunds).toBeLessThanOrEqual(1);
      expect([0, -SEARCH_PRICE]).toContain(c.net);
    }
    const keptUnanswered = unanswered.filter(([, c]) => c.net !== 0).length;
    console.info(
      `${backend}: ${expiredTraces.length} holds given back by expiry, ${unanswered.length} cut-off searches ` +
        `in the ledger, ${keptUnanswered} of them settled before the kill; tasks: ` +
        ['succeeded', 'failed', 'expired']
          .map((s) => `${tasks.filter((t) => t.state === s).length} ${s}`)
          .join(', '),
    );

    expect(books.balance).toBe(books.ledgerSum);
    expect(books.lowest).toBeGreaterThanOrEqual(0);
    const kept = [...books.byTrace.values()].reduce((sum, c) => sum - c.net, 0);
    expect(books.balance).toBe(START_CREDITS - kept);
  }, 90_000);
});
