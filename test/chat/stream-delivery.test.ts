/**
 * How a streamed chat answer reaches the client, through the real server and an upstream on
 * loopback whose pacing each test sets: the headers (the trace id included), the charge written
 * before the stream ends, chunks passed on as written or renamed, the hold written while the
 * upstream starts (not after its first event), a client that leaves mid-stream (the upstream is
 * cut off, the hold kept), and a client that reads slower than the upstream writes (nothing lost).
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

type Behaviour = (res: ServerResponse, req: IncomingMessage) => void | Promise<void>;

const event = (content: string | null, extra: object = {}) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-paced',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: content === null ? [] : [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    ...extra,
  })}\n\n`;
const usage = (completion: number) =>
  event(null, { usage: { prompt_tokens: 3, completion_tokens: completion, total_tokens: 3 + completion } });

let upstream: Server;
let server: TestServer;
/** What the upstream does with the next streamed request. */
let behaviour: Behaviour;
/** Resolves when the upstream sees the current request's connection close. */
let upstreamClosed: Promise<void>;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    upstreamClosed = new Promise((done) => res.once('close', done));
    req.resume();
    req.once('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void behaviour(res, req);
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  server = await startServer({
    channels: [
      {
        name: 'paced',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
        models: ['chatmodel-4o'],
        model_map: { 'chatmodel-4o': 'gpt-4o' },
      },
    ],
  });
});
afterAll(async () => {
  await server.close();
  upstream.closeAllConnections();
  await new Promise((done) => upstream.close(done));
});

let payers = 0;
async function payer(credits: number) {
  payers += 1;
  return server.services.tokens.create({ name: `stream payer ${payers}`, credits });
}

function ask(secret: string, signal?: AbortSignal) {
  return fetch(`${server.url}/chatmodel/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'chatmodel-4o',
      stream: true,
      max_tokens: 4000,
      messages: [{ role: 'user', content: 'tell me' }],
    }),
    signal,
  });
}

const balanceOf = (id: string) => server.services.tokens.balance(id);

describe('a streamed chat answer', () => {
  it('carries the trace id, and ends only once its charge is written', async () => {
    behaviour = (res) => {
      res.write(event('Hello'));
      res.write(event(' there'));
      res.end(`${usage(2000)}data: [DONE]\n\n`);
    };
    const { token, secret } = await payer(100);
    const response = await ask(secret);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    const text = await response.text();
    // Read at once after the end arrived: the charge is already there.
    const after = await balanceOf(token.id);
    const events = text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const contents = events.slice(0, -1).map(
      (e) =>
        JSON.parse(e.slice('data: '.length)) as {
          model: string;
          choices: { delta: { content?: string } }[];
        },
    );
    expect(contents.map((c) => c.choices[0]?.delta.content).join('')).toBe('Hello there');
    expect(contents.every((c) => c.model === 'chatmodel-4o')).toBe(true);
    // 2 000 completion tokens at 2 credits per 1 000 and 3 prompt tokens: 5 credits, rounded up.
    expect(after).toBe(95);
  });

  it('passes on as written a chunk already under the client’s model name, and renames the rest', async () => {
    // Spacing, key order and a member of its own: what only a chunk passed on unchanged keeps.
    const usageMember =
      '"usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}, "x_vendor"';
    const asWritten = `{"model": "chatmodel-4o", "id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 1, "choices": [{"index": 0, "delta": {"content": "Hi"}, "logprobs": null, "finish_reason": null}], "x_vendor": {"a": 1}}`;
    behaviour = (res) => {
      res.write(`data: ${asWritten}\n\n`);
      res.write(event(' you'));
      // The usage the relay asked for rides on a chunk with choices: sent on without it, whether
      // the chunk was renamed or already under the client's name.
      res.write(`data: ${asWritten.replace('"Hi"', '" there"').replace('"x_vendor"', usageMember)}\n\n`);
      res.end(
        `${event('!', { usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 } })}data: [DONE]\n\n`,
      );
    };
    const { secret } = await payer(100);
    const events = (await (await ask(secret)).text()).split('\n\n').filter(Boolean);
    expect(events[0]).toBe(`data: ${asWritten}`);
    const rest = events
      .slice(1, -1)
      .map((e) => JSON.parse(e.slice('data: '.length)) as Record<string, unknown>);
    expect(rest.map((c) => c.model)).toEqual(['chatmodel-4o', 'chatmodel-4o', 'chatmodel-4o']);
    expect(rest[1]).toMatchObject({ choices: [{ delta: { content: ' there' } }], x_vendor: { a: 1 } });
    expect(rest[1]).not.toHaveProperty('usage');
    expect(rest[2]).not.toHaveProperty('usage');
    expect(events.at(-1)).toBe('data: [DONE]');
  });

  it('sends the chunks that came with an upstream’s error ahead of it, and charges nothing', async () => {
    // All in one write: the chunks and the error reach the relay in one read.
    behaviour = (res) => {
      res.end(`${event('Hello')}${event(' there')}data: {"error": {"message": "overloaded"}}\n\n`);
    };
    const { token, secret } = await payer(100);
    const response = await ask(secret);
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events).toHaveLength(3);
    const [hello, there, failure] = events.map(
      (e) => JSON.parse(e.slice('data: '.length)) as { choices?: { delta: { content?: string } }[] },
    );
    expect([hello, there].map((c) => c?.choices?.[0]?.delta.content)).toEqual(['Hello', ' there']);
    expect(failure).toEqual({
      error: {
        code: 'upstream_error',
        type: 'upstream_error',
        message: 'paced failed mid-stream: overloaded',
      },
    });
    expect(await balanceOf(token.id)).toBe(100);
  });

  it('writes the hold while the upstream starts, not after its first event', async () => {
    const { token, secret } = await payer(100);
    const held = () =>
      server.services.db
        .selectFrom('holds')
        .select('amount')
        .where('token_id', '=', token.id)
        .executeTakeFirst();
    // The upstream answers only once it sees the hold (or after 3 s): written after the first
    // event, the hold would not be there yet.
    let seenBeforeAnswer = false;
    behaviour = async (res) => {
      for (const end = Date.now() + 3000; Date.now() < end && !seenBeforeAnswer;) {
        seenBeforeAnswer = (await held()) !== undefined;
        if (!seenBeforeAnswer) await new Promise((r) => setTimeout(r, 10));
      }
      res.end(`${event('Held')}${usage(1000)}data: [DONE]\n\n`);
    };
    const response = await ask(secret);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"content":"Held"');
    expect(seenBeforeAnswer).toBe(true);
    // Settled at the end: the hold is gone and only what was used is kept (3 credits).
    expect(await held()).toBeUndefined();
    expect(await balanceOf(token.id)).toBe(97);
  });

  it('answers used_up and stops the upstream when the hold is refused while the upstream starts', async () => {
    const { token, secret } = await payer(100);
    // A request of this token in flight: the process's count of the balance was read just now.
    const keeper = await server.services.credits.reserve(token, 10, `keeper-${Math.random()}`);
    // Spent elsewhere meanwhile, unseen by that count: the stream is admitted, its hold refused.
    await server.services.admin.tokens.credit(token.id, -95, 'spent elsewhere', { name: 'test', id: null });
    let reached = false;
    behaviour = (res) => {
      reached = true;
      res.write(event('Unpaid'));
    };
    const response = await ask(secret);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('used_up');
    // Where the upstream was reached before the refusal, it was cut off, not left generating.
    if (reached) await upstreamClosed;
    await keeper.refund();
    expect(await balanceOf(token.id)).toBe(5);
    const holds = await server.services.db
      .selectFrom('holds')
      .select('trace_id')
      .where('token_id', '=', token.id)
      .execute();
    expect(holds).toEqual([]);
  });

  it('cuts the upstream off when the client leaves mid-stream, and keeps the hold', async () => {
    // One event, then the upstream would go on generating for as long as it is let.
    behaviour = (res) => void res.write(event('Once'));
    const { token, secret } = await payer(100);
    // A client that closes its connection after the first event (node:http, so that leaving
    // closes the socket rather than handing it back to a pool).
    const body = JSON.stringify({
      model: 'chatmodel-4o',
      stream: true,
      max_tokens: 4000,
      messages: [{ role: 'user', content: 'tell me' }],
    });
    const first = await new Promise<string>((done, fail) => {
      const req = request(`${server.url}/chatmodel/chat/completions`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      });
      req.once('response', (res) => {
        res.once('data', (chunk: Buffer) => {
          done(chunk.toString('utf8'));
          req.destroy();
        });
        res.once('error', () => undefined);
      });
      // After leaving, the socket's own end may report an error: the promise is settled by then.
      req.on('error', fail);
      req.end(body);
    });
    expect(first).toContain('"content":"Once"');
    await upstreamClosed;
    // The upstream generated for a client that left: what was held is kept, not refunded.
    await expect.poll(() => balanceOf(token.id), { timeout: 5000 }).toBeLessThan(100);
    const kept = await balanceOf(token.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(await balanceOf(token.id)).toBe(kept);
  });

  it('waits for a client that reads slower than the upstream writes, losing nothing', async () => {
    const words = Array.from({ length: 4000 }, (_, i) => `word${i} `.padEnd(200, '.'));
    behaviour = (res) => {
      for (const word of words) res.write(event(word));
      res.end(`${usage(4000)}data: [DONE]\n\n`);
    };
    const { secret } = await payer(1000);
    const response = await ask(secret);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      text += decoder.decode(part.value, { stream: true });
      // A slow reader: the server must hold back, not drop or pile up without end.
      if (text.length < 200_000) await new Promise((r) => setTimeout(r, 5));
    }
    const events = text.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const received = events
      .slice(0, -1)
      .map(
        (e) =>
          (JSON.parse(e.slice('data: '.length)) as { choices: { delta: { content: string } }[] }).choices[0]!
            .delta.content,
      );
    expect(received).toEqual(words);
  });
});
