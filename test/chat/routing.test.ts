/**
 * Routing among several OpenAI-compatible upstreams on loopback: priority, weights, retries,
 * fallback, cooldown, timeouts and a stream that breaks after it started.
 */
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import { expectError } from '../support/expect.js';

let upstreams: FakeUpstream[] = [];
let server: TestServer | undefined;
const MODEL = 'chatmodel-4o';
const ask = { model: MODEL, messages: [{ role: 'user', content: 'ping pong' }] };

beforeAll(async () => {
  upstreams = await Promise.all(['a', 'b', 'c'].map(startFakeUpstream));
});
afterAll(async () => {
  await Promise.all(upstreams.map((u) => u.close()));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const u of upstreams) {
    u.received.length = 0;
    u.delay(0);
  }
});

type Spec = { priority?: number; weight?: number; timeout_seconds?: number };

async function route(
  specs: Spec[],
  routing: Record<string, unknown> = {},
): Promise<{ server: TestServer; token: string }> {
  server = await startServer({
    channels: specs.map((spec, i) => ({
      name: upstreams[i]?.name,
      capability: 'chat',
      type: 'openai-compatible',
      base_url: upstreams[i]?.baseUrl,
      models: ['chatmodel-*'],
      ...spec,
    })),
    'routing.backoff_ms': 5,
    ...Object.fromEntries(Object.entries(routing).map(([k, v]) => [`routing.${k}`, v])),
  });
  return { server, token: await server.token() };
}

const counts = () => upstreams.map((u) => u.received.length);

describe('routing', () => {
  it('tries the lowest priority first', async () => {
    const { server, token } = await route([{ priority: 2 }, { priority: 1 }, { priority: 3 }]);
    for (let i = 0; i < 5; i += 1)
      expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(counts()).toEqual([0, 5, 0]);
  });

  it('shares equal priorities by weight', async () => {
    const { server, token } = await route([{ weight: 3 }, { weight: 1 }]);
    for (let i = 0; i < 200; i += 1) await server.post('/chatmodel/chat/completions', ask, token);
    const [a = 0, b = 0] = counts();
    expect(a + b).toBe(200);
    expect(a / 200).toBeGreaterThan(0.62);
    expect(a / 200).toBeLessThan(0.88);
  });

  it('retries a channel on 503 and 429, then succeeds there', async () => {
    const { server, token } = await route([{ priority: 1 }, { priority: 2 }]);
    upstreams[0]?.failNext(503, 429);
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(counts()).toEqual([3, 0, 0]);
  });

  it('falls back to the next channel when one keeps failing', async () => {
    const { server, token } = await route([{ priority: 1 }, { priority: 2 }]);
    upstreams[0]?.failNext(500, 500, 500);
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(counts()).toEqual([3, 1, 0]);
  });

  it('moves on at once from a channel whose key is refused', async () => {
    const { server, token } = await route([{ priority: 1 }, { priority: 2 }]);
    upstreams[0]?.failNext(401);
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(counts()).toEqual([1, 1, 0]);
  });

  it('takes JSON that is not a completion as a failure, and falls back', async () => {
    const { server, token } = await route([{ priority: 1 }, { priority: 2 }], { retries: 0 });
    upstreams[0]?.sendNext('"a bare string"');
    const answer = await server.post('/chatmodel/chat/completions', ask, token);
    expect(answer.status).toBe(200);
    expect((answer.body as { model: string }).model).toBe(MODEL);
    expect(counts()).toEqual([1, 1, 0]);
    upstreams[0]?.sendNext('[1, 2]');
    upstreams[1]?.sendNext('null');
    expectError(await server.post('/chatmodel/chat/completions', ask, token), 502, 'upstream_error');
  });

  it('never retries a request the upstream calls bad', async () => {
    const { server, token } = await route([{ priority: 1 }, { priority: 2 }]);
    upstreams[0]?.failNext(400);
    const answer = await server.post('/chatmodel/chat/completions', ask, token);
    expectError(answer, 400, 'bad_request');
    expect((answer.body.error as { message: string }).message).toContain('a answers 400');
    expect(counts()).toEqual([1, 0, 0]);
  });

  it('answers 502 when every channel failed, keeping what they said for the log', async () => {
    const { server, token } = await route([{}, {}], { retries: 1 });
    upstreams[0]?.failNext(500, 500);
    upstreams[1]?.failNext(502, 502);
    const answer = await server.post('/chatmodel/chat/completions', ask, token);
    expectError(answer, 502, 'upstream_error');
    const message = (answer.body.error as { message: string }).message;
    expect(message).toBe('every channel for chatmodel-4o failed (4 tried)');
    // What the upstreams said is for the log, not the client.
    expect(answer.text).not.toContain('answers');
  });

  it('cools down a failing channel and skips it for a while', async () => {
    const { server, token } = await route([{ priority: 1 }, { priority: 2 }], {
      retries: 0,
      cooldown_after: 2,
      cooldown_seconds: 60,
    });
    upstreams[0]?.failNext(500, 500);
    await server.post('/chatmodel/chat/completions', ask, token);
    await server.post('/chatmodel/chat/completions', ask, token);
    expect(counts()).toEqual([2, 2, 0]);
    for (let i = 0; i < 3; i += 1) await server.post('/chatmodel/chat/completions', ask, token);
    expect(counts()).toEqual([2, 5, 0]);
  });

  it('gives up on a channel that does not answer in time, and falls back', async () => {
    const { server, token } = await route([{ priority: 1, timeout_seconds: 0.2 }, { priority: 2 }], {
      retries: 0,
    });
    upstreams[0]?.delay(1000);
    const started = Date.now();
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(900);
    expect(counts()).toEqual([1, 1, 0]);
  });

  it('keeps long timeouts too (undici’s own timer), and falls back', async () => {
    const { server, token } = await route([{ priority: 1, timeout_seconds: 2 }, { priority: 2 }], {
      retries: 0,
    });
    upstreams[0]?.delay(6000);
    const started = Date.now();
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1900);
    expect(waited).toBeLessThan(4500);
    expect(counts()).toEqual([1, 1, 0]);
  });

  it('retries a stream that fails before its first chunk, on the next channel', async () => {
    const { server, token } = await route([{ priority: 1 }, { priority: 2 }], { retries: 0 });
    upstreams[0]?.failNext(503);
    const client = new OpenAI({ baseURL: `${server.url}/chatmodel`, apiKey: token, maxRetries: 0 });
    let text = '';
    for await (const chunk of await client.chat.completions.create({
      ...ask,
      model: MODEL,
      messages: [{ role: 'user', content: 'ping pong' }],
      stream: true,
    })) {
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('ping pong');
    expect(counts()).toEqual([1, 1, 0]);
  });

  it('ends a stream that breaks mid-way with an error event, never a clean end', async () => {
    const { server, token } = await route([{}]);
    upstreams[0]?.breakNextStreamAfter(1);
    const response = await server.send('/chatmodel/chat/completions', { ...ask, stream: true }, token);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events).not.toContain('data: [DONE]');
    const last = JSON.parse((events.at(-1) ?? '').slice('data: '.length)) as {
      error: { code: string; message: string };
    };
    expect(last.error.code).toBe('upstream_error');
    expect(last.error.message).toContain('stream broke');
    const client = new OpenAI({ baseURL: `${server.url}/chatmodel`, apiKey: token, maxRetries: 0 });
    upstreams[0]?.breakNextStreamAfter(1);
    const failure = await (async () => {
      for await (const _chunk of await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'a b c' }],
        stream: true,
      })) {
        // Reading until the error arrives.
      }
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
  });
});
