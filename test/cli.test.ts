/**
 * The `switchyard` command as operators use it: the compiled program from the checkout
 * (`make test` builds it first).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { freePort } from './support/server.js';
import { canvasOf } from '../src/engines/canvas.js';
import { encodePng } from '../src/engines/image-codec.js';

// Each step starts the command as its own process (Node, then the whole program): seconds each on
// a machine busy with other test files, so a test of several steps gets more than the default.
vi.setConfig({ testTimeout: 120_000 });

const run = promisify(execFile);
import { maskNumber } from '../src/admin/identities.js';
const BIN = resolve('bin/switchyard');
const dir = mkdtempSync(join(tmpdir(), 'switchyard-cli-'));
const config = join(dir, 'switchyard.yaml');
writeFileSync(config, `data_dir: ${dir}\nlog:\n  level: warn\n`);

const cli = async (...args: string[]) =>
  (await run(BIN, args, { env: { ...process.env, SWITCHYARD_CONFIG: '' } })).stdout;

describe('switchyard token', () => {
  it('creates, lists and revokes tokens', async () => {
    const created = JSON.parse(
      await cli(
        'token',
        'create',
        '--config',
        config,
        '--name',
        'ci',
        '--credits',
        '100',
        '--operations',
        'serp,/tune/vox',
        '--expires-at',
        '2099-01-01T00:00:00Z',
        '--json',
      ),
    ) as Record<string, unknown>;
    expect(created.token).toMatch(/^sy_/);
    expect(created.webhook_secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({
      name: 'ci',
      credits: 100,
      operations: ['/serp/web', '/tune/vox'],
      expires_at: '2099-01-01T00:00:00.000Z',
    });

    const plain = (await cli('token', 'create', '--config', config, '--name', 'plain')).trim();
    expect(plain).toMatch(/^sy_[A-Za-z0-9_-]{43}$/);

    expect(await cli('token', 'revoke', '--config', config, 'plain')).toContain('revoked 1 token');
    const listed = JSON.parse(await cli('token', 'list', '--config', config, '--json')) as {
      name: string;
      revoked_at: string | null;
    }[];
    expect(listed.map((t) => [t.name, t.revoked_at === null])).toEqual([
      ['ci', true],
      ['plain', false],
    ]);
    expect(JSON.stringify(listed)).not.toContain(plain);
  });

  it('explains bad flags and bad configuration', async () => {
    const failure = await run(BIN, [
      'token',
      'create',
      '--config',
      config,
      '--name',
      'x',
      '--operations',
      'nothing',
    ]).catch((e: { stderr: string; code: number }) => e);
    expect((failure as { stderr: string }).stderr).toContain(
      '--operations: nothing is neither an operation path nor a family',
    );
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'port: high\n');
    const bad = await run(BIN, ['token', 'list', '--config', broken]).catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain('port: must be integer');
  });
});

describe('switchyard serve', () => {
  it('serves on the given port, stops cleanly on SIGTERM, and has written every log line by then', async () => {
    const token = JSON.parse(
      await cli('token', 'create', '--config', config, '--name', 'serve', '--json'),
    ) as { token: string };
    const port = await freePort();
    // The default level, a line per request: written in blocks, and the last block at exit.
    const child = spawn(BIN, ['serve', '--config', config, '--port', String(port)], {
      stdio: 'pipe',
      env: { ...process.env, SWITCHYARD_LOG__LEVEL: 'info' },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    try {
      let ready = false;
      for (let i = 0; i < 100 && !ready; i += 1) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready).toBe(true);
      const answer = await fetch(`http://127.0.0.1:${port}/tune/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'retrieve_batch' }),
      });
      expect(await answer.json()).toEqual({ items: [], count: 0 });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    const answered = stdout
      .split('\n')
      .filter((line) => line.includes('"answered"'))
      .map((line) => JSON.parse(line) as { operation: string; status: number });
    expect(answered).toContainEqual(expect.objectContaining({ operation: '/tune/tasks', status: 200 }));
    expect(stdout).not.toContain(token.token);
  });
});

describe('switchyard search', () => {
  it('indexes files with a summary, reports stats, and fails on rejected records', async () => {
    const index = join(dir, 'search.db');
    const out = await cli(
      'search',
      'index',
      'test/serp/fixtures',
      '--index',
      index,
      '--base-url',
      'https://d.example/',
    );
    expect(out).toMatch(
      /^indexed 18 documents from 4 files in [\d.]+ s \(\d+ docs\/s\)\nembedded 18 documents for ranking by meaning in [\d.]+ s\n$/,
    );
    const stats = JSON.parse(await cli('search', 'stats', '--index', index, '--json')) as Record<
      string,
      unknown
    >;
    expect(stats).toMatchObject({
      documents: 18,
      embedded: 18,
      byKind: { page: 9, news: 2, image: 1, video: 1, place: 2 },
    });
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"news"}\n{"type":"organic","link":"file:///etc/passwd","title":"Disk"}\n');
    const failed = await run(BIN, ['search', 'index', bad, '--index', index]).catch(
      (error: unknown) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('bad.jsonl:1: link: is required');
    expect((failed as { stderr: string }).stderr).toContain('bad.jsonl:2: link: must be an http(s) URL');
  });
});

describe('switchyard identity', () => {
  it('enrolls, lists, updates and removes identities, and shows field keys', async () => {
    const portrait = join(dir, 'portrait.png');
    writeFileSync(portrait, encodePng(canvasOf(40, 50)));
    const number = '11010519491231002X';
    expect(
      await cli(
        'identity',
        'enroll',
        '--config',
        config,
        '--name',
        '张晓明',
        '--id-number',
        number,
        '--portrait',
        portrait,
      ),
    ).toBe(`enrolled ${number}\n`);
    // Masked as the admin API masks them, unless asked otherwise; as JSON here, as text below
    // (the rows are the same whichever way they are printed).
    const listed = JSON.parse(await cli('identity', 'list', '--config', config, '--json')) as Record<
      string,
      unknown
    >[];
    expect(listed).toEqual([
      expect.objectContaining({ id_number: maskNumber(number), name: '张**', portrait: true }),
    ]);
    expect(maskNumber(number)).not.toContain(number.slice(4, 14));

    expect(
      await cli(
        'identity',
        'update',
        '--config',
        config,
        '--id-number',
        number,
        '--name',
        '张晓红',
        '--no-portrait',
      ),
    ).toBe(`updated ${number}\n`);
    expect(await cli('identity', 'list', '--config', config, '--unmasked')).toBe(
      `${number}  张晓红  portrait=no\n`,
    );

    // The record is sealed: the database file holds neither the name nor the number.
    const database = readFileSync(join(dir, 'switchyard.db'));
    expect(database.includes(Buffer.from('张晓红'))).toBe(false);
    expect(database.includes(Buffer.from(number))).toBe(false);

    const refused = (args: string[]) =>
      run(BIN, ['identity', ...args, '--config', config]).catch((e: unknown) => e);
    expect(await refused(['enroll', '--name', 'x', '--id-number', '110105194912310021'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('check digit'),
    });
    expect(await refused(['enroll', '--name', 'x', '--id-number', number])).toMatchObject({
      stderr: expect.stringContaining('already enrolled'),
    });
    expect(
      await refused(['enroll', '--name', 'x', '--id-number', '110101199003070038', '--portrait', config]),
    ).toMatchObject({
      stderr: expect.stringContaining('--portrait'),
    });

    expect(await cli('identity', 'remove', '--config', config, '--id-number', number)).toBe(
      `removed ${number}\n`,
    );
    expect(await refused(['remove', '--id-number', number])).toMatchObject({
      stderr: expect.stringContaining('not enrolled'),
    });

    const token = JSON.parse(
      await cli('token', 'create', '--config', config, '--name', 'keys', '--json'),
    ) as { id: string };
    const first = JSON.parse(await cli('identity', 'key', '--config', config, '--token', token.id)) as Record<
      string,
      unknown
    >;
    expect(first).toMatchObject({ token_id: token.id, version: 1, algorithm: 'AES-256-GCM' });
    expect(Buffer.from(String(first.key), 'base64')).toHaveLength(32);
    expect(JSON.parse(await cli('identity', 'key', '--config', config, '--token', token.id))).toEqual(first);
    const rotated = JSON.parse(
      await cli('identity', 'key', '--config', config, '--token', token.id, '--rotate'),
    ) as Record<string, unknown>;
    expect(rotated.version).toBe(2);
    expect(rotated.key).not.toBe(first.key);
  });
});
