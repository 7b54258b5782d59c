/**
 * The README's examples, run as written: the compiled server started as `make run` starts it (its
 * own documentation indexed first), the chat families pointed at a loopback upstream with the
 * configuration the README shows, and every command of the example blocks executed by bash from
 * the repository root with `T` and `B` set. Placeholders (`<task_id>`, an `audio_id` elided with
 * `…`) are filled from earlier answers, as a reader would.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './support/fake-openai.js';
import { freePort } from './support/server.js';

// Every family renders for real: videos, two songs, a vocal extraction, a QR code, an ID card.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

const run = promisify(execFile);
const README = readFileSync(resolve('README.md'), 'utf8');
const BIN = resolve('bin/switchyard');

/** The fenced `sh` blocks of the README section whose heading starts with `heading`. */
function shellBlocks(heading: string): string[] {
  const start = README.indexOf(`\n## ${heading}`);
  expect(start, `README has a section "${heading}"`).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 4);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** A block's commands: comments and blank lines dropped, continued lines joined. */
function commandsOf(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The README's way to point the chat families at an OpenAI-compatible upstream: the value of the
 * `SWITCHYARD_CHANNELS` variable it sets, here aimed at the loopback upstream.
 */
function chatChannels(upstreamUrl: string): string {
  const line = /^SWITCHYARD_CHANNELS='(.*openai-compatible.*)' make run$/m.exec(README);
  expect(line, 'README shows SWITCHYARD_CHANNELS with an openai-compatible channel').not.toBeNull();
  return line![1]!.replace(/base_url: "[^"]*"/, `base_url: "${upstreamUrl}"`);
}

let dir: string;
let server: ChildProcess;
let upstream: FakeUpstream;
let base: string;
let token: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-readme-'));
  upstream = await startFakeUpstream('readme');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = join(dir, 'switchyard.yaml');
  writeFileSync(
    config,
    `port: ${port}\ndata_dir: ${dir}\nlog:\n  level: warn\noutbound:\n  allow_cidrs: ['127.0.0.0/8']\n`,
  );
  env = {
    ...process.env,
    SWITCHYARD_CONFIG: config,
    SWITCHYARD_CHANNELS: chatChannels(upstream.baseUrl),
  };
  // What `make run` does before it serves.
  await run(BIN, ['search', 'index', 'README.md', 'docs'], { env });
  token = (await run(BIN, ['token', 'create', '--name', 'dev'], { env })).stdout.trim();
  server = spawn(BIN, ['serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await ready(`${base}/readyz`, 60_000);
});

afterAll(async () => {
  server?.kill();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ready(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while ((await fetch(url).catch(() => undefined))?.ok !== true) {
    if (Date.now() > until) throw new Error(`the server did not answer ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A curl command of the README and the JSON it was answered (with status 200). */
interface Ran {
  command: string;
  body: Record<string, unknown>;
}

/**
 * Runs each command of `block` in bash, with the block's earlier variable assignments before it.
 * `fill` sees the answers so far, to put in what the README leaves for the reader to fill. A curl
 * command also prints its status, so that a failure shows what the server said.
 */
async function runBlock(block: string, fill: (command: string, soFar: Ran[]) => string): Promise<Ran[]> {
  const assignments: string[] = [];
  const ran: Ran[] = [];
  for (const written of commandsOf(block)) {
    if (/^[A-Za-z_]\w*=/.test(written)) {
      assignments.push(written);
      continue;
    }
    const command = fill(written, ran);
    const isCurl = command.startsWith('curl ');
    const script = [
      'set -euo pipefail',
      `T='${token}'`,
      `B='${base}'`,
      ...assignments,
      isCurl ? `${command} -sS -w '\\n%{http_code}'` : command,
    ].join('\n');
    const { stdout } = await run('bash', ['-c', script], { env, maxBuffer: 64 * 1024 * 1024 });
    if (!isCurl) continue;
    const cut = stdout.lastIndexOf('\n');
    const status = Number(stdout.slice(cut + 1));
    const text = stdout.slice(0, cut);
    expect(status, `${written}\n→ ${text.slice(0, 500)}`).toBe(200);
    ran.push({ command: written, body: JSON.parse(text) as Record<string, unknown> });
  }
  return ran;
}

const pathOf = (command: string) => /\$B(\/[^\s'"]+)/.exec(command)?.[1] ?? command;

describe('README', () => {
  it('runs every example of "One example per operation" as written', async () => {
    const last = (soFar: Ran[], path: string) => soFar.filter((r) => pathOf(r.command) === path).at(-1)?.body;
    const fill = (command: string, soFar: Ran[]) => {
      const qr = last(soFar, '/qrart/tasks');
      const song = (last(soFar, '/tune/audios')?.data as { id: string }[] | undefined)?.[0];
      return command
        .replace('<task_id>', String(qr?.task_id))
        .replace(/"audio_id": "[^"]*…"/, `"audio_id": "${song?.id}"`);
    };
    const [block] = shellBlocks('One example per operation');
    const ran = await runBlock(block!, fill);
    const byPath = (path: string) => ran.filter((r) => pathOf(r.command) === path).map((r) => r.body);
    for (const r of ran) expect(r.body.success, r.command).not.toBe(false);

    const [search] = byPath('/serp/web');
    expect((search!.organic as unknown[]).length).toBeGreaterThan(0);
    expect(JSON.stringify(search)).not.toContain('file:');
    for (const path of ['/clip/videos', '/maxi/videos', '/tune/audios'])
      for (const item of byPath(path)[0]!.data as { state: string }[])
        expect(item.state, path).toBe('succeeded');
    const [dance] = byPath('/dance/videos');
    expect((dance!.data as { status: string }[])[0]!.status).toBe('succeeded');
    const [vox] = byPath('/tune/vox');
    expect((vox!.data as { status: string }).status).toBe('complete');
    for (const chat of [...byPath('/chatmodel/chat/completions'), ...byPath('/moon/chat/completions')])
      expect((chat.choices as { message: { content: string } }[])[0]!.message.content).toBe('Hello');
    const [generated, retrieved] = byPath('/qrart/tasks');
    expect(retrieved!.id).toBe(generated!.task_id);
    expect((retrieved!.response as { image_url: string }).image_url).toMatch(/^http/);
    for (const path of ['/identity/idcard/check-1e', '/identity/idcard/ocr'])
      expect(byPath(path)[0]!.result, path).toBe('success');
    expect(Number(byPath('/identity/idcard/check-1e')[0]!.sim)).toBeGreaterThanOrEqual(70);
    expect((byPath('/tune/tasks')[0]!.items as unknown[]).length).toBeGreaterThan(0);
  });

  it('runs the examples of "Searching your own files" as written', async () => {
    const ran: Ran[] = [];
    for (const block of shellBlocks('Searching your own files'))
      ran.push(...(await runBlock(block, (c) => c)));
    expect(ran.length).toBeGreaterThan(0);
    for (const { body, command } of ran) {
      const organic = body.organic as { link: string }[];
      expect(organic.length, command).toBeGreaterThan(0);
      expect(JSON.stringify(body)).not.toContain('file:');
      // Each link the service made opens with a plain GET.
      for (const { link } of organic.filter((o) => o.link.startsWith(base))) {
        const response = await fetch(link);
        expect(response.status, link).toBe(200);
      }
    }
  });
});
