/**
 * What every fake video vendor shares: a loopback HTTP server that records each request, answers
 * scripted failures first (each fake says in which shape its vendor reports them), serves the
 * finished videos, and a book of tasks that move queued → running → done over successive polls.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Json = Record<string, unknown>;

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization?: string;
  /** The JSON body; undefined for a GET. */
  body?: Json;
}

export interface Reply {
  status: number;
  body: unknown;
}

export const reply = (status: number, body: unknown): Reply => ({ status, body });

export interface FakeServer {
  baseUrl: string;
  received: Received[];
  /** The requests received on `path` (exactly, or by prefix when it ends in `/`). */
  to(path: string): Received[];
  /** Statuses to answer the next requests with, one each, before answering normally. */
  failNext(...statuses: number[]): void;
  /**
   * Between tests: waits until requests already on their way have been answered (a poll in
   * flight when its job was abandoned reaches the fake after its test ended, and would take the
   * next test's scripted failure), then forgets the scripted failures and what was received.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** Bytes already on a loopback socket become a request within this time, even on a busy machine. */
const IN_FLIGHT_MS = 30;

/** Where a finished task's video is served, on the fake itself. */
export const VIDEO_PATH = '/media/';

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/**
 * Starts a fake on loopback. `route` answers a request; `failure` gives the vendor's error body
 * for a scripted status; `video` is served at `VIDEO_PATH…` for any name.
 */
export async function startFake(
  route: (request: Received) => Reply,
  failure: (status: number, request: Received) => unknown,
  video: Buffer,
): Promise<FakeServer> {
  const received: Received[] = [];
  const failures: number[] = [];
  let open = 0;
  const idle: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    open += 1;
    res.once('close', () => {
      open -= 1;
      if (open === 0) for (const wake of idle.splice(0)) wake();
    });
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname.startsWith(VIDEO_PATH)) {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': video.length });
        return void res.end(video);
      }
      const text = await read(req);
      let body: Json | undefined;
      try {
        body = text === '' ? undefined : (JSON.parse(text) as Json);
      } catch {
        body = { unparsable: text };
      }
      const request: Received = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        authorization: req.headers.authorization,
        body,
      };
      received.push(request);
      const failing = failures.shift();
      const answer = failing === undefined ? route(request) : reply(failing, failure(failing, request));
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    received,
    to: (path) => received.filter((r) => (path.endsWith('/') ? r.path.startsWith(path) : r.path === path)),
    failNext: (...statuses) => failures.push(...statuses),
    settle: async () => {
      await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_MS));
      if (open > 0) await new Promise<void>((resolve) => idle.push(resolve));
      failures.length = 0;
      received.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Phase = 'queued' | 'running' | 'succeeded' | 'failed';

export interface Task {
  id: string;
  /** What the task was created with, for the fake to answer about it. */
  input: Json;
  polls: number;
  created: number;
  /** The reason it fails with, when it was told to fail. */
  failure?: string;
}

/**
 * The tasks of a fake. A task answers `queued` for the first `queuedPolls` polls, `running` for
 * the next `runningPolls`, then its end: succeeded, or failed when `failNextTask` was called
 * before it was created. A held book keeps every task running forever.
 */
export class TaskBook {
  private readonly tasks = new Map<string, Task>();
  private plan = { queuedPolls: 1, runningPolls: 1 };
  private failures: string[] = [];
  private held = false;

  constructor(private readonly newId: () => string = randomUUID) {}

  /** How many polls a new task spends queued and running. */
  pace(queuedPolls: number, runningPolls: number): void {
    this.plan = { queuedPolls, runningPolls };
  }

  failNextTask(reason: string): void {
    this.failures.push(reason);
  }

  /** Tasks never finish while held. */
  hold(held: boolean): void {
    this.held = held;
  }

  create(input: Json): Task {
    const task: Task = {
      id: this.newId(),
      input,
      polls: 0,
      created: Date.now(),
      failure: this.failures.shift(),
    };
    this.tasks.set(task.id, task);
    return task;
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  /** The task's phase now, counting this as one more poll. */
  poll(task: Task): Phase {
    task.polls += 1;
    return this.phase(task);
  }

  /** The task's phase, without counting a poll. */
  phase(task: Task): Phase {
    if (this.held) return task.polls === 0 ? 'queued' : 'running';
    if (task.polls <= this.plan.queuedPolls) return 'queued';
    if (task.polls <= this.plan.queuedPolls + this.plan.runningPolls) return 'running';
    return task.failure === undefined ? 'succeeded' : 'failed';
  }

  reset(): void {
    this.plan = { queuedPolls: 1, runningPolls: 1 };
    this.failures = [];
    this.held = false;
  }
}
