/**
 * An upstream speaking this service's own `/serp/web`, on loopback, for the tests of the
 * passthrough channel. It answers every query with one organic result that repeats the query,
 * ranked after the page's offset. Tests script what comes next: statuses (their body echoes the
 * bearer token, as a careless upstream might), a raw body, or a delay.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSerpWeb {
  baseUrl: string;
  /** Requests received, in order. */
  received: { path: string; body: Record<string, unknown>; authorization?: string }[];
  failNext(...statuses: number[]): void;
  /** A body to answer the next request with, status 200. */
  answerNext(body: string): void;
  /** Delays every answer by this many milliseconds. */
  delay(ms: number): void;
  close(): Promise<void>;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
  });
}

export async function startFakeSerpWeb(): Promise<FakeSerpWeb> {
  const received: FakeSerpWeb['received'] = [];
  const failures: number[] = [];
  const bodies: string[] = [];
  let delayMs = 0;
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await read(req)) || '{}') as Record<string, unknown>;
    received.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    res.setHeader('content-type', 'application/json');
    const failure = failures.shift();
    if (failure !== undefined) {
      res.writeHead(failure);
      res.end(JSON.stringify({ error: { message: `refused ${req.headers.authorization ?? 'anonymous'}` } }));
      return;
    }
    const scripted = bodies.shift();
    if (scripted !== undefined) return void res.end(scripted);
    const [page, number] = [Number(body.page ?? 1), Number(body.number ?? 10)];
    res.end(
      JSON.stringify({
        organic: [
          {
            link: 'https://web.example/echo',
            title: String(body.query),
            snippet: `You asked for ${String(body.query)}.`,
            position: (page - 1) * number + 1,
          },
        ],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    failNext: (...statuses) => failures.push(...statuses),
    answerNext: (body) => bodies.push(body),
    delay: (ms) => (delayMs = ms),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
