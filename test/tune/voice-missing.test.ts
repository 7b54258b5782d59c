/**
 * A server on a machine without Festival: a song with English words answers 503 naming the
 * Debian packages to install. The server runs from source (tsx) as a child process whose PATH
 * holds ffmpeg, ffprobe and fluidsynth but not festival or text2wave.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../support/server.js';
import { SHORT_LYRIC } from './music.js';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

let dir: string;
let server: ChildProcess;
let base: string;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-no-festival-'));
  const tools = join(dir, 'bin');
  await run('mkdir', ['-p', tools]);
  for (const tool of ['ffmpeg', 'ffprobe', 'fluidsynth'])
    symlinkSync((await run('bash', ['-c', `command -v ${tool}`])).stdout.trim(), join(tools, tool));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = join(dir, 'switchyard.yaml');
  writeFileSync(config, `port: ${port}\ndata_dir: ${dir}\nlog:\n  level: warn\n`);
  const env = { ...process.env, SWITCHYARD_CONFIG: config, PATH: tools };
  token = (await run(process.execPath, [...CLI, 'token', 'create', '--name', 't'], { env })).stdout.trim();
  server = spawn(process.execPath, [...CLI, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let tries = 0; (await fetch(`${base}/readyz`).catch(() => undefined))?.ok !== true; tries += 1) {
    if (tries > 250) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}, 60_000);

afterAll(() => {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

it('answers a song with English words with a 503 naming the Festival packages', async () => {
  const music = await fetch(`${base}/tune/audios`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      action: 'generate',
      custom: true,
      lyric: SHORT_LYRIC,
      style: 'piano',
      title: 'Quiet',
    }),
  });
  const text = await music.text();
  expect(music.status, text).toBe(503);
  expect(text).toMatch(
    /Festival is not installed \(Debian packages festival festvox-kallpc16k festlex-cmu festlex-poslex\)/,
  );
}, 60_000);
