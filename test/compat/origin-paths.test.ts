/**
 * The origin's paths on the real server with its local engines (chat through a fake OpenAI
 * upstream): each request body is written as the origin's public SDKs write it, their defaults
 * included (the search client's `type`, `page` and `number`; suno's `async: true`; seedance's
 * `ratio`, `generate_audio`, `return_last_frame`, `execution_expires_after` and `priority`;
 * hailuo's missing model), and every answer names models as the client sent them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import { expectError } from '../support/expect.js';
import { pollTask } from '../support/poll.js';
import { startServer, type TestServer } from '../support/server.js';
import { ONE_LINE_LYRIC, QUICK_STYLE } from '../support/quick-song.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

let chat: FakeUpstream;
let server: TestServer;
let token: string;
/** Receives callbacks. */
let hooks: Server;

beforeAll(async () => {
  chat = await startFakeUpstream('chat');
  hooks = createServer();
  await new Promise<void>((done) => hooks.listen(0, '127.0.0.1', done));
  server = await startServer({
    channels: [
      { name: 'chat', capability: 'chat', type: 'openai-compatible', base_url: chat.baseUrl, models: ['*'] },
    ],
    'outbound.allow_cidrs': ['127.0.0.1/32'],
    'callbacks.poll_ms': 50,
    // One song and one video at a time: one engine thread each, loaded once.
    'music.workers': 1,
    'video.workers': 1,
  });
  token = await server.token();
});
afterAll(async () => {
  await server?.close();
  await chat?.close();
  hooks?.close();
});

const done = (t: Record<string, unknown>) => ['succeeded', 'failed'].includes(String(t.state));
const models = (text: string) => [...text.matchAll(/"model":"([^"]+)"/g)].map((m) => m[1]);

describe('origin paths', () => {
  it('/serp/google answers what /serp/web answers', async () => {
    const body = { query: 'switchyard', type: 'search', page: 1, number: 10, image_size: 'large' };
    const origin = await server.post('/serp/google', body, token);
    expect(origin.status, origin.text).toBe(200);
    const { image_size: _drop, ...ours } = body;
    expect(origin.body).toEqual((await server.post('/serp/web', ours, token)).body);
  });

  it('/openai and /kimi chat completions name the model sent, streams included', async () => {
    const messages = [{ role: 'user', content: 'hello there' }];
    const gpt = await server.post('/openai/chat/completions', { model: 'gpt-4o', messages }, token);
    expect(gpt.status, gpt.text).toBe(200);
    expect(gpt.body.model).toBe('gpt-4o');
    expect(chat.received.at(-1)?.body.model).toBe('chatmodel-4o');
    // kimi-k3 is newer than any moon model here: the nearest answers, named as sent.
    const kimi = await server.post('/kimi/chat/completions', { model: 'kimi-k3', messages }, token);
    expect(kimi.status, kimi.text).toBe(200);
    expect(kimi.body.model).toBe('kimi-k3');
    expect(chat.received.at(-1)?.body.model).toBe('moon-k2.5');
    const stream = await server.send(
      '/openai/chat/completions',
      { model: 'gpt-4o-mini', messages, stream: true },
      token,
    );
    const text = await stream.text();
    expect(text).toContain('data: [DONE]');
    expect(new Set(models(text))).toEqual(new Set(['gpt-4o-mini']));
  });

  it('an origin path takes the permission and usage operation of the path it stands for', async () => {
    const searchOnly = await server.token({ operations: ['/serp/web'] });
    expect((await server.post('/serp/google', { query: 'permission' }, searchOnly)).status).toBe(200);
    const chatAnswer = await server.post(
      '/openai/chat/completions',
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] },
      searchOnly,
    );
    expectError(chatAnswer, 403, 'token_mismatched');
    // Its usage is the operation's own.
    const until = Date.now() + 10_000;
    let rows: { operation: string; requests: number }[] = [];
    while (!rows.some((r) => r.operation === 'serp.web') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      const usage = await fetch(`${server.url}/v1/account/usage?group_by=operation`, {
        headers: { authorization: `Bearer ${searchOnly}` },
      });
      rows = ((await usage.json()) as { rows: typeof rows }).rows;
    }
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operation: 'serp.web', requests: 1, succeeded: 1 }),
        expect.objectContaining({ operation: 'chat.chatmodel', requests: 1, failed: 1 }),
      ]),
    );
  });

  it('an unknown origin model is a 400 naming model', async () => {
    const answer = await server.post(
      '/openai/chat/completions',
      { model: 'gpt-nonesuch', messages: [{ role: 'user', content: 'x' }] },
      token,
    );
    expectError(answer, 400, 'bad_request');
    expect(answer.text).toContain('model');
  });

  it('/suno/audios, /suno/tasks, /suno/vox and /suno/persona as the suno SDK sends them', async () => {
    const submitted = await server.post(
      '/suno/audios',
      {
        action: 'generate',
        model: 'chirp-v4',
        custom: true,
        lyric: ONE_LINE_LYRIC,
        style: QUICK_STYLE,
        audio_urls: [],
        negative_tags: 'metal',
        duration: 30,
        async: true,
      },
      token,
    );
    expect(submitted.status, submitted.text).toBe(200);
    const id = submitted.body.task_id as string;
    const record = await pollTask(server, 'suno', id, token, done, 50_000);
    expect(record.state, JSON.stringify(record)).toBe('succeeded');
    const text = JSON.stringify(record);
    expect(new Set(models(text))).toEqual(new Set(['chirp-v4']));
    const items = (record.response as { data: { id: string; model: string }[] }).data;
    const audioId = items[0]!.id;

    const vox = await server.post(
      '/suno/vox',
      { audio_id: audioId, vocal_start: 0, vocal_end: 2, async: true },
      token,
    );
    expect(vox.status, vox.text).toBe(200);
    const voxRecord = await pollTask(server, 'suno', vox.body.task_id as string, token, done, 30_000);
    expect(voxRecord.state, JSON.stringify(voxRecord)).toBe('succeeded');

    const persona = await server.post('/suno/persona', { name: 'Calm', audio_id: audioId }, token);
    expect(persona.status, persona.text).toBe(200);
    expect((persona.body.data as Record<string, unknown>).persona_id).toEqual(expect.any(String));
  });

  it('/seedance/videos with the SDK defaults and a newer model: its record and callback name it as sent', async () => {
    const delivered = new Promise<string>((done) => {
      hooks.once('request', (req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => {
          res.writeHead(200).end('ok');
          done(text);
        });
      });
    });
    const submitted = await server.post(
      '/seedance/videos',
      {
        // Newer than any local model: the nearest (dance-1-0-pro-fast-251015) renders it.
        model: 'doubao-seedance-2-0-mini-260615',
        resolution: '480p',
        callback_url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
        content: [{ type: 'text', text: 'a red balloon over a field' }],
        ratio: '16:9',
        // The fewest frames dance makes (29, 1.2 s).
        frames: 29,
        generate_audio: false,
        return_last_frame: false,
        execution_expires_after: 172800,
        priority: 0,
        async: true,
      },
      token,
    );
    expect(submitted.status, submitted.text).toBe(200);
    const record = await pollTask(server, 'seedance', submitted.body.task_id as string, token, done, 50_000);
    expect(record.state, JSON.stringify(record)).toBe('succeeded');
    expect(new Set(models(JSON.stringify(record)))).toEqual(new Set(['doubao-seedance-2-0-mini-260615']));
    expect(new Set(models(await delivered))).toEqual(new Set(['doubao-seedance-2-0-mini-260615']));
  });

  it('/hailuo/videos watched as ndjson: every snapshot names the model as the origin does', async () => {
    // The hailuo SDK sends no model: the origin's default, minimax-t2v, is what each line names.
    const response = await server.send(
      '/hailuo/videos',
      // No word the engine draws: the plainest scene, where a boat brings water and waves to render.
      { action: 'generate', prompt: 'a paper lantern' },
      token,
      {
        accept: 'application/x-ndjson',
      },
    );
    const text = await response.text();
    expect(response.headers.get('content-type'), text).toMatch(/^application\/x-ndjson/);
    const lines = text.trim().split('\n');
    // A snapshot while it waits or renders, and the finished one.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(new Set(models(line))).toEqual(new Set(['minimax-t2v']));
    expect(text).not.toMatch(/maxi-/);
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ success: true });
  });

  it('/kling/videos with the members of the kling SDK, retrieved through /kling/tasks', async () => {
    const answer = await server.post(
      '/kling/videos',
      {
        action: 'image2video',
        model: 'kling-v3',
        prompt: 'waves on a beach',
        duration: 5,
        aspect_ratio: '16:9',
        mode: '4k',
        generate_audio: false,
        image_list: [{ image_url: 'https://example.com/first.png', type: 'first_frame' }],
        async: true,
      },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    // Its record names the model as sent from the start; seedance above shows a finished video.
    const record = await server.post('/kling/tasks', { action: 'retrieve', id: answer.body.task_id }, token);
    expect(record.status, record.text).toBe(200);
    expect(new Set(models(record.text))).toEqual(new Set(['kling-v3']));
    const request = record.body.request as Record<string, unknown>;
    expect(request.start_image_url).toBe('https://example.com/first.png');
    expect(request.mode).toBe('pro');
  });

  it('/qrart/generate takes numbers and rawurl, and answers flat', async () => {
    const answer = await server.post(
      '/qrart/generate',
      {
        type: 'link',
        content: 'https://example.com',
        prompt: 'a garden of roses',
        rotate: 90,
        padding_level: 5,
        padding_noise: 0.5,
        rawurl: true,
      },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      ['image_height', 'image_url', 'image_width', 'seed', 'task_id'].sort(),
    );
    const record = await server.post('/qrart/tasks', { action: 'retrieve', id: answer.body.task_id }, token);
    expect((record.body.request as Record<string, unknown>).rotate).toBe('90');
  });

  it('our own paths stay strict', async () => {
    const answer = await server.post(
      '/tune/audios',
      { action: 'generate', model: 'chirp-v4', prompt: 'x', audio_urls: [], async: true },
      token,
    );
    expectError(answer, 400, 'bad_request');
    expect(answer.text).toContain('audio_urls');
  });
});

/** Retries a 504 as the origin's SDKs do: each retry would be a second generation. */
async function postRetrying(
  url: string,
  body: unknown,
  key: string,
): Promise<{ tries: number; response: Response }> {
  for (let tries = 1; ; tries += 1) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    if (response.status !== 504 || tries === 3) return { tries, response };
  }
}

describe('a synchronous wait that runs out', () => {
  let waiting: TestServer;
  let key: string;
  beforeAll(async () => {
    // One video at a time: the second request waits in the queue rather than rendering beside the
    // first, which is as good for a 504 after a second.
    waiting = await startServer({ 'limits.sync_wait_seconds': 1, 'video.workers': 1 });
    key = await waiting.token();
  });
  afterAll(async () => {
    await waiting?.close();
  });

  it('answers 200 with the pending task on an origin path, and a retrying client makes one task', async () => {
    // The hailuo SDK's body: no model (the origin's default minimax-t2v), its default prompt.
    const { tries, response } = await postRetrying(
      `${waiting.url}/hailuo/videos`,
      { action: 'generate', prompt: '火气' },
      key,
    );
    const answer = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(answer)).toBe(200);
    expect(tries).toBe(1);
    expect(answer.task_id).toEqual(expect.any(String));
    expect(['pending', 'running']).toContain(answer.state);
    const list = await waiting.post('/hailuo/tasks', { action: 'retrieve_batch' }, key);
    expect(list.status, list.text).toBe(200);
    expect(JSON.stringify(list.body)).toContain('"model":"minimax-t2v"');
    expect(list.body.count).toBe(1);
  });

  it('keeps the 504 on our own path', async () => {
    const answer = await waiting.post(
      '/maxi/videos',
      { action: 'generate', model: 'maxi-t2v', prompt: 'x' },
      key,
    );
    expectError(answer, 504, 'timeout');
  });
});
