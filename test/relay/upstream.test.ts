/**
 * One call to an upstream channel, against a real HTTP server on loopback: answers read whole and
 * as they arrive, UTF-8 and CRLF split across chunks, a reader that leaves early cancelling the
 * upstream, aborts before and after the answer begins, short time limits, and refusals.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUpstream, jsonOf } from '../../src/providers/upstream.js';
import { UpstreamFailure } from '../../src/providers/router.js';
import { sseData } from '../../src/providers/chat/channels/sse.js';
import { StopSwitch, type StopSignal } from '../../src/providers/stop-signal.js';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Route>();
let server: Server;
let base: string;
const channel = { name: 'vendor', api_key: 'sk-secret-key', timeout_seconds: 5 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = createServer((req, res) => routes.get(req.url ?? '')?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (
  path: string,
  signal: StopSignal = new AbortController().signal,
  timeout = channel.timeout_seconds,
) =>
  callUpstream(
    { ...channel, timeout_seconds: timeout },
    `${base}${path}`,
    { method: 'GET', headers: {} },
    signal,
  );

describe('an upstream call', () => {
  it('reads a JSON answer whole, with its status and headers', async () => {
    routes.set('/json?q=1', (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-seen': 'yes' });
      res.end(JSON.stringify({ text: '你好, world', n: 1 }));
    });
    const answer = await get('/json?q=1');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-seen']).toBe('yes');
    expect(await jsonOf(channel, answer)).toEqual({ text: '你好, world', n: 1 });
  });

  it('reads a large answer sent in many chunks whole', async () => {
    const part = 'x'.repeat(64 * 1024);
    routes.set('/large', async (_, res) => {
      res.writeHead(200);
      for (let i = 0; i < 32; i += 1) {
        if (!res.write(part)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    });
    const text = await (await get('/large')).body.text();
    expect(text.length).toBe(32 * part.length);
  });

  it('turns a refusal into a failure with the upstream’s status and message, the key blanked', async () => {
    routes.set('/refused', (_, res) => {
      res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'slow down, sk-secret-key' } }));
    });
    const failure = (await get('/refused').catch((error: unknown) => error)) as UpstreamFailure;
    expect(failure).toBeInstanceOf(UpstreamFailure);
    expect(failure.status).toBe(429);
    expect(failure.retryAfterSeconds).toBe(7);
    expect(failure.message).toBe('429 slow down, ***');
  });

  it('says a body that is not JSON is broken, without quoting it', async () => {
    routes.set('/html', (_, res) => res.end('<html>sk-secret-key</html>'));
    const failure = (await jsonOf(channel, await get('/html')).catch((e: unknown) => e)) as Error;
    expect(failure.message).toBe('vendor sent a broken answer (not JSON)');
  });

  it('keeps a short time limit for the answer to begin, to the tenth of a second', async () => {
    routes.set('/slow', (_, res) => setTimeout(() => res.end('{}'), 2000));
    const started = performance.now();
    const failure = (await get('/slow', undefined, 0.2).catch((error: unknown) => error)) as Error;
    const took = performance.now() - started;
    expect(failure.message).toBe('vendor unreachable (no answer within 0.2 s)');
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1000);
  });

  // A request's own StopSwitch (what the server hands its work), and an AbortController's signal.
  const clients: [string, () => { signal: StopSignal; leave: () => void }][] = [
    [
      'a StopSwitch',
      () => {
        const stop = new StopSwitch();
        return { signal: stop, leave: () => stop.stop() };
      },
    ],
    [
      'an AbortSignal',
      () => {
        const controller = new AbortController();
        return { signal: controller.signal, leave: () => controller.abort() };
      },
    ],
  ];
  it.each(clients)(
    'gives up at once when the client leaves before the answer begins, and when it had left already (%s)',
    async (_, client) => {
      let closed!: () => void;
      const upstreamClosed = new Promise<void>((resolve) => (closed = resolve));
      routes.set('/hang', (req) => req.socket.once('close', closed));
      const { signal, leave } = client();
      const pending = get('/hang', signal);
      await sleep(100);
      leave();
      await expect(pending).rejects.toBeInstanceOf(UpstreamFailure);
      await upstreamClosed;
      await expect(get('/json?q=1', signal)).rejects.toBeInstanceOf(UpstreamFailure);
    },
  );

  it('names an upstream that cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const failure = (await callUpstream(
      channel,
      `http://127.0.0.1:${closedPort}/`,
      { method: 'GET', headers: {} },
      new AbortController().signal,
    ).catch((error: unknown) => error)) as Error;
    expect(failure.message).toBe('vendor unreachable (ECONNREFUSED)');
    const malformed = (await callUpstream(
      channel,
      'not a url',
      { method: 'GET', headers: {} },
      new AbortController().signal,
    ).catch((error: unknown) => error)) as Error;
    expect(malformed).toBeInstanceOf(UpstreamFailure);
    expect(malformed.message).toBe('vendor unreachable (ERR_INVALID_URL)');
  });
});

describe('a stream from upstream', () => {
  /** Sends `parts` (bytes) one by one, a pause between them so that each arrives on its own. */
  const sendParts = (parts: Buffer[]) => async (_: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const part of parts) {
      res.write(part);
      await sleep(30);
    }
    res.end();
  };

  it('reads events whose characters, line ends and byte order mark are split between chunks', async () => {
    const text = Buffer.from(
      '\ufeffdata: {"t":"你好"}\r\n\r\ndata: second\n: a comment\ndata: line\n\ndata: [DONE]\n\n',
    );
    const bom = 2; // inside the mark's three bytes
    const cut = text.indexOf(Buffer.from('好')) + 1; // inside the character's three bytes
    const crlf = text.indexOf(Buffer.from('\r\n\r\n')) + 1; // between CR and LF
    routes.set(
      '/split',
      sendParts([
        text.subarray(0, bom),
        text.subarray(bom, cut),
        text.subarray(cut, crlf),
        text.subarray(crlf),
      ]),
    );
    const events: string[] = [];
    for await (const batch of sseData((await get('/split')).body)) events.push(...batch);
    expect(events).toEqual(['{"t":"你好"}', 'second\nline', '[DONE]']);
  });

  it('cancels the upstream when the reader leaves early', async () => {
    let closedEarly!: (early: boolean) => void;
    const upstreamClosed = new Promise<boolean>((resolve) => (closedEarly = resolve));
    routes.set('/endless', (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const tick = setInterval(() => res.write('data: tick\n\n'), 10);
      res.once('close', () => {
        clearInterval(tick);
        closedEarly(!res.writableFinished);
      });
    });
    let seen = 0;
    for await (const batch of sseData((await get('/endless')).body)) {
      expect(batch.every((data) => data === 'tick')).toBe(true);
      if ((seen += batch.length) >= 3) break;
    }
    expect(await upstreamClosed).toBe(true);
  });

  it('cancels the upstream when the client aborts mid-stream, and the reader sees the break', async () => {
    let closed!: () => void;
    const upstreamClosed = new Promise<void>((resolve) => (closed = resolve));
    routes.set('/long', (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const tick = setInterval(() => res.write('data: tick\n\n'), 10);
      res.once('close', () => {
        clearInterval(tick);
        closed();
      });
    });
    const client = new AbortController();
    const answer = await get('/long', client.signal);
    let seen = 0;
    const reading = (async () => {
      for await (const batch of sseData(answer.body)) {
        expect(batch.every((data) => data === 'tick')).toBe(true);
        if ((seen += batch.length) >= 2) client.abort();
      }
    })();
    await expect(reading).rejects.toThrow();
    await upstreamClosed;
    expect(seen).toBeGreaterThanOrEqual(2);
  });

  it('pauses an upstream that sends faster than the reader reads, and loses nothing', async () => {
    const event = `data: ${'y'.repeat(1000)}\n\n`;
    const count = 2000; // about 2 MB
    let blocked = false;
    routes.set('/fast', async (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < count; i += 1) {
        if (!res.write(event)) {
          blocked = true;
          await new Promise((resolve) => res.once('drain', resolve));
        }
      }
      res.end('data: [DONE]\n\n');
    });
    let read = 0;
    let ended = false;
    for await (const batch of sseData((await get('/fast')).body)) {
      ended = batch.at(-1) === '[DONE]';
      read += batch.filter((data) => data !== '[DONE]').length;
      // A slow reader: the upstream fills its socket meanwhile.
      await sleep(5);
    }
    expect(read).toBe(count);
    expect(ended).toBe(true);
    expect(blocked).toBe(true);
  });
});
