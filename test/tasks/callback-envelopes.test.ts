/**
 * What each family's callback says, on the local engines: a success is the final envelope a
 * waiting request gets and the task record keeps (a QR task: its record, with `success` and
 * `task_id`); a failure is exactly `{success: false, task_id, trace_id, error}`. A receiver on
 * loopback checks every signature with the standardwebhooks package. The failures pass
 * validation and fail in the engine: an audio or video that is not the token's, an image that
 * cannot be decoded.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { ONE_LINE_LYRIC, QUICK_STYLE } from '../support/quick-song.js';

// Each success makes a whole song or video: seconds of work, more on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

interface Delivery {
  body: Record<string, unknown>;
  verified: boolean;
}

/** Not an image any decoder reads, yet a well-formed data: URL. */
const BROKEN_IMAGE = 'data:image/png;base64,AAAA';

let server: TestServer;
let receiver: Server;
let base: string;
let token: string;
let secret: string;
const deliveries = new Map<string, (delivery: Delivery) => void>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      let verified = true;
      try {
        new Webhook(secret).verify(text, req.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      deliveries.get(req.url ?? '')?.({ body: JSON.parse(text) as Record<string, unknown>, verified });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // One song and one video at a time: one engine thread each, loaded once.
  server = await startServer({
    'outbound.allow_cidrs': ['127.0.0.1/32'],
    'callbacks.poll_ms': 50,
    'music.workers': 1,
    'video.workers': 1,
  });
  const created = await server.services.tokens.create({ name: 'envelopes' });
  token = created.secret;
  secret = created.token.webhookSecret;
});
afterAll(async () => {
  await server.close();
  receiver.close();
});

interface Called {
  taskId: string;
  traceId: string;
  delivery: Delivery;
  /** The task record once it was called back, without the state of its callback. */
  record: Record<string, unknown>;
}

/** Submits with a callback URL of its own and waits for the call. */
async function callback(path: string, body: Record<string, unknown>): Promise<Called> {
  const hook = `/hook/${randomUUID()}`;
  const delivered = new Promise<Delivery>((resolve) => deliveries.set(hook, resolve));
  const answer = await server.post(path, { ...body, callback_url: `${base}${hook}` }, token);
  expect(answer.status, answer.text).toBe(200);
  const { task_id: taskId, trace_id: traceId } = answer.body as { task_id: string; trace_id: string };
  const delivery = await delivered;
  expect(delivery.verified).toBe(true);
  const family = path.split('/')[1];
  const retrieved = await server.post(`/${family}/tasks`, { action: 'retrieve', id: taskId }, token);
  const { callback: _callback, ...record } = retrieved.body;
  return { taskId, traceId, delivery, record };
}

/** A success of a media family: `{success, task_id, trace_id, data}`, the record's response. */
function expectSucceeded({ taskId, traceId, delivery, record }: Called): Record<string, unknown> {
  expect(record.state).toBe('succeeded');
  expect(Object.keys(delivery.body).sort()).toEqual(['data', 'success', 'task_id', 'trace_id']);
  expect(delivery.body).toMatchObject({ success: true, task_id: taskId, trace_id: traceId });
  expect(delivery.body).toEqual(record.response);
  return delivery.body;
}

/** A failure of any family: exactly these four members, the error naming the field. */
function expectFailed({ taskId, traceId, delivery, record }: Called, message: RegExp | string): void {
  expect(record.state).toBe('failed');
  expect(delivery.body).toEqual({
    success: false,
    task_id: taskId,
    trace_id: traceId,
    error: {
      code: 'bad_request',
      message: typeof message === 'string' ? message : expect.stringMatching(message),
    },
  });
}

describe('callback bodies', () => {
  let songId: string | undefined;

  it('/tune/audios', async () => {
    const [made, missing] = await Promise.all([
      callback('/tune/audios', {
        action: 'generate',
        custom: true,
        style: QUICK_STYLE,
        lyric: ONE_LINE_LYRIC,
      }),
      callback('/tune/audios', { action: 'extend', audio_id: 'no-such-audio', continue_at: 3 }),
    ]);
    const data = expectSucceeded(made).data as { id: string; state: string }[];
    expect(data.map((item) => item.state)).toEqual(['succeeded', 'succeeded']);
    songId = data[0]!.id;
    expectFailed(missing, 'audio_id: names no audio of this token');
  });

  it('/tune/vox', async () => {
    expect(songId).toBeDefined();
    const [vocal, missing] = await Promise.all([
      callback('/tune/vox', { audio_id: songId }),
      callback('/tune/vox', { audio_id: 'no-such-audio' }),
    ]);
    expect(expectSucceeded(vocal).data).toMatchObject({ status: 'complete', source_clip_id: songId });
    expectFailed(missing, 'audio_id: names no audio of this token');
  });

  it('/clip/videos', async () => {
    const [clip, missing] = await Promise.all([
      // Square frames, the smallest a clip comes in: the envelope is what is checked.
      callback('/clip/videos', {
        action: 'text2video',
        prompt: 'a paper boat on a pond',
        aspect_ratio: '1:1',
      }),
      callback('/clip/videos', { action: 'extend', video_id: 'no-such-video' }),
    ]);
    expect(expectSucceeded(clip).data).toEqual([expect.objectContaining({ state: 'succeeded' })]);
    expectFailed(missing, 'video_id: names no video of this token');
  });

  it('/dance/videos', async () => {
    const model = 'dance-1-0-lite-i2v-250428';
    const [dance, broken] = await Promise.all([
      // The fewest frames (29, 1.2 s) at the smallest size (480×480) dance allows.
      callback('/dance/videos', {
        model: 'dance-1-0-lite-t2v-250428',
        content: [{ type: 'text', text: 'a red kite --rs 480p --rt 1:1' }],
        frames: 29,
      }),
      callback('/dance/videos', {
        model,
        content: [
          { type: 'text', text: 'a red kite --rs 480p --dur 2' },
          { type: 'image_url', image_url: { url: BROKEN_IMAGE }, role: 'first_frame' },
        ],
      }),
    ]);
    expect(expectSucceeded(dance).data).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expectFailed(broken, /^content\[1\]\.image_url\.url: /);
  });

  it('/maxi/videos', async () => {
    const [maxi, broken] = await Promise.all([
      callback('/maxi/videos', { model: 'maxi-t2v', action: 'generate', prompt: 'a lantern in fog' }),
      callback('/maxi/videos', {
        model: 'maxi-i2v',
        action: 'generate',
        prompt: 'fog',
        first_image_url: BROKEN_IMAGE,
      }),
    ]);
    expect(expectSucceeded(maxi).data).toEqual([expect.objectContaining({ state: 'succeeded' })]);
    expectFailed(broken, /^first_image_url: /);
  });

  it('/qrart/tasks', async () => {
    const [art, broken] = await Promise.all([
      callback('/qrart/tasks', { action: 'generate', content: 'https://example.com', seed: 3 }),
      callback('/qrart/tasks', {
        action: 'generate',
        content: 'https://example.com',
        content_image_url: BROKEN_IMAGE,
      }),
    ]);
    // The task record as a retrieval answers it, with `success` and `task_id`.
    expect(art.delivery.body).toEqual({ success: true, task_id: art.taskId, ...art.record });
    expect(art.record).toMatchObject({
      id: art.taskId,
      trace_id: art.traceId,
      state: 'succeeded',
      request: { content: 'https://example.com', trace_id: art.traceId },
      response: { success: true, seed: 3, image_width: 768, image_height: 768 },
    });
    expectFailed(broken, /^content_image_url: /);
  });
});
