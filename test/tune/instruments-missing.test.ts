/**
 * A server on a machine without FluidSynth: music requests answer 503 naming the Debian package
 * to install, and the other families still work. The compiled server runs as a child process
 * whose PATH holds ffmpeg and ffprobe but not fluidsynth.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../support/server.js';

const run = promisify(execFile);
const BIN = resolve('bin/switchyard');

let dir: string;
let server: ChildProcess;
let base: string;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-no-fluidsynth-'));
  const tools = join(dir, 'bin');
  await run('mkdir', ['-p', tools]);
  for (const tool of ['ffmpeg', 'ffprobe', 'bash', 'dirname', 'readlink'])
    symlinkSync((await run('bash', ['-c', `command -v ${tool}`])).stdout.trim(), join(tools, tool));
  symlinkSync(process.execPath, join(tools, 'node'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = join(dir, 'switchyard.yaml');
  writeFileSync(config, `port: ${port}\ndata_dir: ${dir}\nlog:\n  level: warn\n`);
  const env = { ...process.env, SWITCHYARD_CONFIG: config, PATH: tools };
  token = (await run(BIN, ['token', 'create', '--name', 't'], { env })).stdout.trim();
  server = spawn(BIN, ['serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let tries = 0; (await fetch(`${base}/readyz`).catch(() => undefined))?.ok !== true; tries += 1) {
    if (tries > 150) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 60_000);

afterAll(() => {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

it('answers music with a 503 naming fluidsynth, and serves the rest', async () => {
  const music = await post('/tune/audios', {
    action: 'generate',
    custom: true,
    instrumental: true,
    style: 'piano, 160 bpm',
    title: 'Quiet',
  });
  const text = await music.text();
  expect(music.status, text).toBe(503);
  expect(text).toMatch(/fluidsynth is not installed \(Debian package fluidsynth\)/);
  const search = await post('/serp/web', { query: 'anything' });
  expect(search.status).toBe(200);
}, 60_000);
