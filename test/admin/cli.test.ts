/**
 * The operator's commands (the compiled program, as operators run it) over the same service
 * layer as the admin API: token update and credits, usage, requests, channels and redemption codes, as tables and
 * as JSON, with bad flags explained.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';

// Each command is a process of its own, started as operators start it: one to two seconds on a
// quiet machine, several beside other test files; each test below runs a handful.
vi.setConfig({ testTimeout: 120_000 });

const run = promisify(execFile);
const BIN = resolve('bin/switchyard');
const dir = mkdtempSync(join(tmpdir(), 'switchyard-admin-cli-'));
const config = join(dir, 'switchyard.yaml');
writeFileSync(config, `data_dir: ${dir}\nlog:\n  level: warn\n`);

// The configuration by its variable: a flag after `--` would be read as an argument.
const env = { ...process.env, SWITCHYARD_CONFIG: config };
const cli = async (...args: string[]) => (await run(BIN, args, { env })).stdout;
const json = async (...args: string[]) => JSON.parse(await cli(...args, '--json')) as Record<string, unknown>;
const failure = async (...args: string[]) =>
  run(BIN, args, { env }).then(
    () => '',
    (error: { stderr: string; code: number }) => {
      expect(error.code).toBe(1);
      return error.stderr;
    },
  );

describe('switchyard admin commands', () => {
  let acme: Record<string, unknown>;

  it('creates tokens and tops up their credits', async () => {
    expect(await json('token', 'create', '--name', 'ops', '--admin')).toMatchObject({ role: 'admin' });
    expect(await json('token', 'create', '--name', 'auditor', '--admin', '--viewer')).toMatchObject({
      role: 'viewer',
    });
    expect(await failure('token', 'create', '--name', 'reader', '--viewer')).toContain(
      '--viewer: a viewer is an admin token; add --admin',
    );
    acme = await json('token', 'create', '--name', 'acme', '--credits', '10');
    expect(await failure('token', 'create', '--name', 'acme')).toContain(
      '--name: a live token is already called acme',
    );
    expect(await json('token', 'credits', 'acme', '+500', '--note', 'invoice 42')).toMatchObject({
      balance: 510,
      delta: 500,
    });
    expect(await cli('token', 'credits', 'acme', '--', '-10')).toBe('acme: balance 500 (-10)\n');
    // The service layer's refusals (a balance below zero, an unknown channel) are the admin
    // API's, tested over HTTP (admin-api.test.ts); one of them is told below (token update).
    expect(await failure('token', 'credits', 'acme', 'lots')).toContain('<delta>: lots');
  });

  it('makes an account with budgets whose keys spend one balance', async () => {
    const made = await json(
      'account',
      'create',
      'shop',
      '--credits',
      '300',
      '--budget',
      '50/day',
      '--budget',
      '900/month',
    );
    expect(made).toMatchObject({
      name: 'shop',
      balance: 300,
      budgets: [
        { period: 'day', credits: 50, used: 0 },
        { period: 'month', credits: 900, used: 0 },
      ],
    });
    expect(await failure('account', 'create', 'twice', '--budget', '5/day', '--budget', '6/day')).toContain(
      '--budget: day is given twice',
    );
    expect(await json('token', 'create', '--name', 'shop-ci', '--account', 'shop')).toMatchObject({
      account: 'shop',
      credits: 300,
    });
    expect(await cli('account', 'credits', 'shop', '+20', '--note', 'order 7')).toBe(
      'shop: balance 320 (+20)\n',
    );
    expect(await json('account', 'update', 'shop', '--no-budgets', '--low-balance', '25')).toMatchObject({
      budgets: [],
      low_balance: 25,
      balance: 320,
      tokens: [expect.objectContaining({ name: 'shop-ci' })],
    });
  });

  it('edits a token', async () => {
    const updated = await json(
      'token',
      'update',
      'acme',
      '--rate',
      '5',
      '--concurrency',
      'unlimited',
      '--disable',
    );
    expect(updated).toMatchObject({ rate_per_second: 5, concurrency: null, disabled: true, balance: 500 });
    expect(await failure('token', 'update', 'acme', '--operations', 'nothing')).toContain(
      'operations: nothing',
    );
  });

  it('reports usage and requests', async () => {
    // Requests as the server records them, straight into the database.
    const db = new SqliteDatabase(join(dir, 'switchyard.db'));
    const insert = db.prepare(
      `insert into usage (id, token_id, operation, model, action, credits, status, latency_ms, trace_id, created_at, error_code)
       values (?, ?, ?, null, null, ?, ?, ?, ?, ?, ?)`,
    );
    const now = Date.now();
    insert.run('0000000001', acme.id, '/serp/web', 1, 200, 40, 'trace-1', now - 3000, null);
    insert.run('0000000002', acme.id, '/serp/web', 0, 403, 3, 'trace-2', now - 2000, 'used_up');
    insert.run('0000000003', acme.id, '/clip/videos', 5, 200, 900, 'trace-3', now - 1000, null);
    db.close();

    const usage = await json('usage', '--group-by', 'operation');
    expect(usage.rows).toEqual([
      expect.objectContaining({ operation: 'clip.videos', requests: 1, credits: 5 }),
      expect.objectContaining({ operation: 'serp.web', requests: 2, succeeded: 1, failed: 1, credits: 1 }),
    ]);
    const text = await cli('usage', '--group-by', 'token,operation');
    expect(text.split('\n')[0]).toMatch(
      /^token\s+operation\s+requests\s+succeeded\s+failed\s+credits\s+p50_ms\s+p95_ms$/,
    );
    expect(text).toMatch(/acme\s+serp\.web\s+2\s+1\s+1\s+1/);
    expect((await cli('usage', '--group-by', 'day', '--csv')).split('\r\n')[0]).toBe(
      'day,requests,succeeded,failed,credits,p50_ms,p95_ms',
    );
    expect(await failure('usage', '--group-by', 'week')).toContain('--group-by: week');

    const failed = await json('requests', '--status', '4xx', '--token', 'acme');
    expect(failed.rows).toEqual([
      expect.objectContaining({ trace_id: 'trace-2', error_code: 'used_up', success: false }),
    ]);
    expect(await cli('requests', '--limit', '2')).toContain('next page: --before ');
    expect(await failure('requests', '--status', 'bad')).toContain('--status: bad');
  });

  it('switches channels off and on, and audits every change', async () => {
    const channels = await json('channels');
    expect((channels.rows as { id: string }[]).map((c) => c.id)).toEqual(
      expect.arrayContaining(['local-index', 'local:clip', 'local:tune']),
    );
    expect(await json('channels', 'disable', 'local:clip')).toMatchObject({
      state: 'disabled',
      disabled_by: 'cli',
    });
    expect(await cli('channels', 'list')).toMatch(/local:clip\s+clip\s+local\s+disabled/);
    expect(await json('channels', 'enable', 'local:clip')).toMatchObject({ state: 'ok' });

    // A batch of redemption codes, printed once; listed with its uses; disabled.
    const made = await json('codes', 'create', '--credits', '50', '--count', '2', '--note', 'fair');
    expect(made.codes).toHaveLength(2);
    expect((await json('codes', 'list')).rows).toEqual([
      expect.objectContaining({ batch: made.batch, credits: 50, count: 2, used: 0, note: 'fair' }),
    ]);
    expect(await json('codes', 'disable', made.batch as string)).toMatchObject({ batch: made.batch });
    expect(await failure('codes', 'create', '--credits', '5')).toContain(
      '--credits and --count are required',
    );

    const audit = new SqliteDatabase(join(dir, 'switchyard.db'), { readonly: true });
    const actions = audit.prepare(`select actor, action, target from audit order by id`).all();
    audit.close();
    expect(actions).toEqual(
      expect.arrayContaining([
        { actor: 'cli', action: 'token.credits', target: 'acme' },
        { actor: 'cli', action: 'token.update', target: 'acme' },
        { actor: 'cli', action: 'channel.disable', target: 'local:clip' },
        { actor: 'cli', action: 'codes.disable', target: made.batch },
      ]),
    );
  });
});
