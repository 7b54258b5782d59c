/**
 * Music and QR art relayed to an upstream of this same interface: a second Switchyard, the
 * compiled server in its own process with its local engines, is the only live channel of `tune`
 * and `qrart` of a first one. A client of the first submits and waits, streams, is called back
 * and retrieves its tasks by the first instance's ids (QR art past a channel that is down). The
 * results are the upstream's (its audio files, its QR image, its item ids, so that a later action
 * naming an audio goes there too); a failure the upstream finds in the request comes back as the
 * same 400-class error; our callback URL never leaves the first instance.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { download, durationOf, probe } from '../support/media-probe.js';
import { ndjsonLines, pollTask } from '../support/poll.js';
import { decodeWithJsqr } from '../support/qr-decoders.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { ONE_LINE_LYRIC, QUICK_STYLE } from '../support/quick-song.js';

// Songs are made whole by the upstream (one sung line at a quick tempo): seconds of work each, more
// on a loaded machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 90_000 });

const BIN = resolve('bin/switchyard');
const run = promisify(execFile);
/** Not an image any decoder reads, yet a well-formed data: URL. */
const BROKEN_IMAGE = 'data:image/png;base64,AAAA';

let dir: string;
let upstream: ChildProcess;
let upstreamBase: string;
let upstreamToken: string;
let first: TestServer;
let token: string;
let secret: string;
let receiver: Server;
let hooks: string;
const deliveries = new Map<string, (body: Record<string, unknown>) => void>();

async function ready(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while ((await fetch(url).catch(() => undefined))?.ok !== true) {
    if (Date.now() > until) throw new Error(`the upstream did not answer ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-relay-'));
  const port = await freePort();
  upstreamBase = `http://127.0.0.1:${port}`;
  const config = join(dir, 'switchyard.yaml');
  writeFileSync(
    config,
    // One song at a time: one engine thread, loaded once.
    `port: ${port}\ndata_dir: ${dir}\npublic_base_url: ${upstreamBase}\nlog:\n  level: warn\nmusic:\n  workers: 1\n`,
  );
  const env = { ...process.env, SWITCHYARD_CONFIG: config };
  upstreamToken = (await run(BIN, ['token', 'create', '--name', 'relay'], { env })).stdout.trim();
  upstream = spawn(BIN, ['serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await ready(`${upstreamBase}/readyz`, 60_000);

  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      new Webhook(secret).verify(text, req.headers as Record<string, string>);
      deliveries.get(req.url ?? '')?.(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const peer = { type: 'passthrough', base_url: upstreamBase, api_key: upstreamToken };
  first = await startServer({
    channels: [
      { name: 'peer-music', capability: 'tune', ...peer },
      // Tried first and never there: QR art falls back to the live upstream, as routing does.
      { name: 'gone-qr', capability: 'qrart', ...peer, base_url: `http://127.0.0.1:${await freePort()}` },
      { name: 'peer-qr', capability: 'qrart', ...peer, priority: 1 },
    ],
    'routing.backoff_ms': 10,
    'outbound.allow_cidrs': ['127.0.0.1/32'],
    'callbacks.poll_ms': 50,
  });
  const created = await first.services.tokens.create({ name: 'client' });
  token = created.secret;
  secret = created.token.webhookSecret;
});

afterAll(async () => {
  await first?.close();
  upstream?.kill();
  receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The upstream's own record of a task, asked with the first instance's channel key. */
async function upstreamRecord(family: string, id: string): Promise<Record<string, unknown>> {
  const answer = await fetch(`${upstreamBase}/${family}/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${upstreamToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'retrieve', id }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

/** The upstream's tasks of a family, newest first. */
async function upstreamTasks(family: string): Promise<Record<string, unknown>[]> {
  const answer = await fetch(`${upstreamBase}/${family}/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${upstreamToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'retrieve_batch', limit: 50 }),
  });
  return ((await answer.json()) as { items: Record<string, unknown>[] }).items;
}

/** Submits with a callback URL of its own and waits for the signed call. */
async function calledBack(path: string, body: Record<string, unknown>) {
  const hook = `/hook/${randomUUID()}`;
  const delivered = new Promise<Record<string, unknown>>((done) => deliveries.set(hook, done));
  const answer = await first.post(path, { ...body, callback_url: `${hooks}${hook}` }, token);
  expect(answer.status, answer.text).toBe(200);
  const taskId = answer.body.task_id as string;
  return { taskId, delivery: await delivered };
}

type Item = { id: string; state: string; audio_url: string; duration: number };

describe('music through a same-interface upstream', () => {
  let song: Item;

  it('answers a waited generation with the upstream’s songs under the first instance’s task id', async () => {
    const answer = await first.post(
      '/tune/audios',
      { action: 'generate', custom: true, lyric: ONE_LINE_LYRIC, style: QUICK_STYLE, title: 'River Road' },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.success).toBe(true);
    const taskId = answer.body.task_id as string;
    const data = answer.body.data as Item[];
    expect(data.length).toBeGreaterThan(0);
    for (const item of data) {
      expect(item.state).toBe('succeeded');
      expect(item.audio_url.startsWith(`${upstreamBase}/files/`)).toBe(true);
      const probed = await probe(await download(item.audio_url));
      expect(probed.streams[0]!.codec_name).toBe('mp3');
      expect(Math.abs(durationOf(probed) - item.duration)).toBeLessThan(0.1);
    }
    song = data[0]!;
    // Retrieval by the first instance's id: the same songs.
    const record = await first.post('/tune/tasks', { action: 'retrieve', id: taskId }, token);
    expect(record.body).toMatchObject({ id: taskId, state: 'succeeded', response: { data } });
    // The upstream made them in a task of its own, submitted asynchronously.
    const made = (await upstreamTasks('tune')).find((t) =>
      ((t.response as { data?: Item[] } | undefined)?.data ?? []).some((i) => i.id === song.id),
    );
    expect(made?.id).not.toBe(taskId);
    expect(made?.request).toMatchObject({
      action: 'generate',
      custom: true,
      lyric: ONE_LINE_LYRIC,
      async: true,
    });
  });

  it('streams an extension of that song, named by its id, with progress to the end', async () => {
    const response = await first.send(
      '/tune/audios',
      // A line of words: a short extension, where one without words is a 30 s instrumental.
      { action: 'extend', audio_id: song.id, continue_at: 5, lyric: '[Verse]\nHigher and higher we go' },
      token,
      { accept: 'application/x-ndjson' },
    );
    expect(response.status).toBe(200);
    const lines = await ndjsonLines(response);
    const taskIds = new Set(lines.map((l) => l.task_id));
    expect(taskIds.size).toBe(1);
    const last = lines.at(-1)!;
    expect(last.success, JSON.stringify(last)).toBe(true);
    expect(last.progress).toEqual({ fraction: 1, stage: 'done' });
    const fractions = lines.map((l) => (l.progress as { fraction: number }).fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const [extended] = last.data as Item[];
    expect(extended!.audio_url.startsWith(`${upstreamBase}/files/`)).toBe(true);
    const taskId = [...taskIds][0] as string;
    const record = await pollTask(first, 'tune', taskId, token);
    expect(record.state).toBe('succeeded');
  });

  it('calls the first instance’s client back, and never hands the upstream that URL', async () => {
    const { taskId, delivery } = await calledBack('/tune/audios', {
      action: 'generate',
      custom: true,
      lyric: ONE_LINE_LYRIC,
      style: QUICK_STYLE,
    });
    const record = await first.post('/tune/tasks', { action: 'retrieve', id: taskId }, token);
    expect(record.body.state).toBe('succeeded');
    expect(delivery).toEqual(record.body.response);
    expect(delivery).toMatchObject({ success: true, task_id: taskId });
    for (const task of await upstreamTasks('tune')) {
      expect((task.request as Record<string, unknown>).callback_url).toBeUndefined();
    }
  });
});

describe('QR art through a same-interface upstream', () => {
  it('answers with the first instance’s task record holding the upstream’s image', async () => {
    const answer = await first.post(
      '/qrart/tasks',
      { action: 'generate', content: 'https://example.com/relay', seed: 7 },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    const id = answer.body.task_id as string;
    expect(answer.body).toMatchObject({
      success: true,
      id,
      state: 'succeeded',
      request: { content: 'https://example.com/relay', seed: 7 },
      response: { success: true, seed: 7, image_width: 768, image_height: 768 },
    });
    const imageUrl = (answer.body.response as { image_url: string }).image_url;
    expect(imageUrl.startsWith(`${upstreamBase}/files/`)).toBe(true);
    const png = await download(imageUrl);
    expect(decodeWithJsqr(png)).toBe('https://example.com/relay');
    const retrieved = await first.post('/qrart/tasks', { action: 'retrieve', id }, token);
    const { callback: _callback, ...record } = retrieved.body;
    const { success: _success, task_id: _taskId, ...answered } = answer.body;
    expect(record).toEqual(answered);
  });

  it('calls back with the record, and passes on a request the upstream refuses as a 400-class failure', async () => {
    const [art, broken] = await Promise.all([
      calledBack('/qrart/tasks', { action: 'generate', content: 'relay callback', seed: 11 }),
      calledBack('/qrart/tasks', {
        action: 'generate',
        content: 'relay callback',
        content_image_url: BROKEN_IMAGE,
      }),
    ]);
    const retrieved = await first.post('/qrart/tasks', { action: 'retrieve', id: art.taskId }, token);
    const { callback: _callback, ...record } = retrieved.body;
    expect(art.delivery).toEqual({ success: true, task_id: art.taskId, ...record });
    expect(record).toMatchObject({ state: 'succeeded', response: { success: true, seed: 11 } });
    expect(broken.delivery).toMatchObject({
      success: false,
      task_id: broken.taskId,
      error: { code: 'bad_request', message: expect.stringMatching(/^content_image_url: /) },
    });
    const upstreamSide = await upstreamRecord('qrart', String((await upstreamTasks('qrart'))[0]!.id));
    expect(upstreamSide.request).not.toHaveProperty('callback_url');
  });
});
