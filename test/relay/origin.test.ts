/**
 * Relaying to the origin: a first Switchyard whose only channels are of type `origin`, pointing at
 * a second one (the compiled server in its own process) that answers the origin's paths. Between
 * them a recording proxy shows what went up: the origin's paths and model names only. Search,
 * music, video, chat and QR art go end to end, and the first instance's clients see our names.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { ONE_LINE_LYRIC, QUICK_STYLE } from '../support/quick-song.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const BIN = resolve('bin/switchyard');
const run = promisify(execFile);

let dir: string;
let upstream: ChildProcess;
let chat: FakeUpstream;
let proxy: Server;
let first: TestServer;
let token: string;
/** Every call that went up: the origin path and the model it named. */
const seen: { path: string; model?: unknown }[] = [];

async function ready(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while ((await fetch(url).catch(() => undefined))?.ok !== true) {
    if (Date.now() > until) throw new Error(`the upstream did not answer ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Passes each call on to `target`, noting its path and model. */
function recordingProxy(target: string): Server {
  return createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      seen.push({ path: req.url ?? '', model: body.model });
      void fetch(`${target}${req.url}`, {
        method: req.method,
        headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
        body: text,
      }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
}

beforeAll(async () => {
  chat = await startFakeUpstream('behind-origin');
  dir = mkdtempSync(join(tmpdir(), 'switchyard-origin-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = join(dir, 'switchyard.yaml');
  writeFileSync(
    config,
    [
      `port: ${port}`,
      `data_dir: ${dir}`,
      `public_base_url: ${base}`,
      'log:',
      '  level: warn',
      // One song and one video at a time: one engine thread each, loaded once.
      'music:',
      '  workers: 1',
      'video:',
      '  workers: 1',
      'channels:',
      `  - { name: chat, capability: chat, type: openai-compatible, base_url: "${chat.baseUrl}" }`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SWITCHYARD_CONFIG: config };
  const key = (await run(BIN, ['token', 'create', '--name', 'relay'], { env })).stdout.trim();
  upstream = spawn(BIN, ['serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await ready(`${base}/readyz`, 60_000);
  proxy = recordingProxy(base);
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  const origin = {
    type: 'origin',
    base_url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    api_key: key,
  };
  first = await startServer({
    channels: ['serp', 'tune', 'dance', 'chat', 'qrart'].map((capability) => ({
      name: `origin-${capability}`,
      capability,
      ...origin,
    })),
    'outbound.allow_cidrs': ['127.0.0.1/32'],
  });
  token = await first.token();
});

afterAll(async () => {
  await first?.close();
  upstream?.kill();
  proxy?.close();
  await chat?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The calls that went up since `from`. */
const upSince = (from: number) => seen.slice(from);

describe('an origin channel', () => {
  it('relays search to /serp/google', async () => {
    const from = seen.length;
    const answer = await first.post('/serp/web', { query: 'relay' }, token);
    expect(answer.status, answer.text).toBe(200);
    expect(upSince(from).map((c) => c.path)).toEqual(['/serp/google']);
  });

  it('relays chat in the origin model names, answering in ours', async () => {
    const from = seen.length;
    const messages = [{ role: 'user', content: 'hello relay' }];
    const answer = await first.post(
      '/chatmodel/chat/completions',
      { model: 'chatmodel-4o', messages },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.model).toBe('chatmodel-4o');
    const moon = await first.post('/moon/chat/completions', { model: 'moon-k2.5', messages }, token);
    expect(moon.status, moon.text).toBe(200);
    expect(moon.body.model).toBe('moon-k2.5');
    expect(upSince(from)).toEqual([
      { path: '/openai/chat/completions', model: 'gpt-4o' },
      { path: '/kimi/chat/completions', model: 'kimi-k2.5' },
    ]);
  });

  it('relays music to /suno/audios and follows it on /suno/tasks', async () => {
    const from = seen.length;
    const answer = await first.post(
      '/tune/audios',
      { action: 'generate', model: 'tune-v4', custom: true, lyric: ONE_LINE_LYRIC, style: QUICK_STYLE },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    const items = answer.body.data as { model: string; audio_url: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((i) => i.model))).toEqual(new Set(['tune-v4']));
    const calls = upSince(from);
    expect(calls[0]).toEqual({ path: '/suno/audios', model: 'chirp-v4' });
    expect(new Set(calls.slice(1).map((c) => c.path))).toEqual(new Set(['/suno/tasks']));
  });

  it('relays video to /seedance/videos and follows it on /seedance/tasks', async () => {
    const from = seen.length;
    const answer = await first.post(
      '/dance/videos',
      {
        model: 'dance-1-0-lite-t2v-250428',
        // The smallest video dance makes: 480×480, 29 frames.
        content: [{ type: 'text', text: 'a red balloon --rt 1:1' }],
        frames: 29,
      },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    const [item] = answer.body.data as { model: string; content: { video_url: string } }[];
    expect(item?.model).toBe('dance-1-0-lite-t2v-250428');
    expect(item?.content.video_url).toContain(first.url);
    const calls = upSince(from);
    expect(calls[0]).toEqual({ path: '/seedance/videos', model: 'doubao-seedance-1-0-lite-t2v-250428' });
    expect(new Set(calls.slice(1).map((c) => c.path))).toEqual(new Set(['/seedance/tasks']));
  });

  it('relays QR art to /qrart/generate and follows it on /qrart/tasks', async () => {
    const from = seen.length;
    const answer = await first.post(
      '/qrart/tasks',
      { action: 'generate', type: 'link', content: 'https://example.com', prompt: 'roses' },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    expect((answer.body.response as Record<string, unknown>).image_url).toEqual(expect.any(String));
    const calls = upSince(from).map((c) => c.path);
    expect(calls[0]).toBe('/qrart/generate');
    expect(new Set(calls.slice(1))).toEqual(new Set(['/qrart/tasks']));
  });
});
