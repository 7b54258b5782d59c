/**
 * The providers of each capability family. A family is served by its local engine or by upstream
 * channels; a family with neither answers 503 `busy`, saying so, rather than inventing a result.
 */
import type { Family, MediaType, Operation } from '../contract/types.js';
import type { Token } from '../accounts/tokens.js';
import { unservedFamily } from './unserved.js';
import type { KeptFiles } from './kept-files.js';
import type { StopSignal } from './stop-signal.js';

/** One validated synchronous request handed to a capability. */
export interface Call {
  operation: Operation;
  body: Record<string, unknown>;
  token: Token;
  traceId: string;
  accept: MediaType;
  /** Stops when the client goes away (a StopSwitch from the HTTP layer, an AbortSignal from MCP). */
  signal: StopSignal;
}

/** What a task's engine sees while it runs: its input, its deadline, and the ways to report. */
export interface Job {
  taskId: string;
  /** The token that submitted the task: what the engine keeps for it is kept under it. */
  tokenId: string;
  traceId: string;
  operation: Operation;
  /** The validated request body, secrets included. */
  input: Record<string, unknown>;
  /** 1 for the first run; more when an earlier worker died while running it. */
  attempt: number;
  /** Unix ms after which the task is expired. */
  deadline: number;
  /** Aborted at the deadline: stop work, the task is expired. */
  signal: AbortSignal;
  /** Publishes the engine's partial data; watchers receive it as a snapshot. */
  progress(data: unknown): Promise<void>;
  /**
   * Tells watchers how far the work is (0 to 1) and what it is doing (`compose`, `render`, …).
   * Call it as often as is natural: reports are thinned out, and one behind an earlier is ignored.
   */
  advance(fraction: number, stage: string): void;
  /** Stores a produced file and answers its public URL. */
  saveFile(data: Buffer, extension: string): Promise<string>;
  /** Reads an input URL of the request (data:, this service's /files/, or guarded http(s)). */
  fetchInput(field: string, url: string, maxBytes: number): Promise<Buffer>;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
}

/**
 * A streamed answer, sent as server-sent events and closed by `data: [DONE]`; a failure after the
 * first event is sent as a last `data: {"error": …}` event instead. `usage` is known once the
 * events ended, for charging.
 */
export class EventStream {
  constructor(
    readonly events: AsyncIterable<unknown>,
    readonly usage: () => TokenUsage | undefined,
  ) {}
}

/**
 * The JSON text an event arrived as, for an event passed on unchanged: sent as it came rather than
 * serialised again (a relayed chat stream's chunks, each parsed to be read, most left as they
 * were). A member of the event itself, not a WeakMap entry (each of those made the collector's
 * work larger), and a plain one: defining a member that a copy would not take cost half as much
 * as parsing the event. The mark names the event it was made for, so that a copy made by
 * spreading the event, which takes the member along, is not taken for it and is serialised anew.
 * An event changed in place after it was marked must not keep its mark.
 */
const RECEIVED = Symbol('text received');

interface Received {
  json: string;
  of: object;
}

export function receivedAs<T extends object>(event: T, json: string): T {
  (event as { [RECEIVED]?: Received })[RECEIVED] = { json, of: event };
  return event;
}

/** The JSON text `event` arrived as, when it is passed on unchanged. */
export function textReceived(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const mark = (event as { [RECEIVED]?: Received })[RECEIVED];
  return mark?.of === event ? mark.json : undefined;
}

/**
 * An answer streamed as newline-delimited JSON (`accept: application/x-ndjson` on a synchronous
 * operation): progress lines, then the answer itself as the last line.
 */
export class LineStream {
  constructor(private readonly lines: AsyncIterable<unknown>) {}

  /**
   * Runs up to the first line, so that a failure before anything was sent is still answered
   * with its own HTTP status; the lines from the first on come back.
   */
  async start(): Promise<AsyncIterable<unknown>> {
    const iterator = this.lines[Symbol.asyncIterator]();
    const first = await iterator.next();
    return (async function* () {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })();
  }
}

export interface Capability {
  /** Answers a synchronous operation's response body, or an event stream. */
  handle?(call: Call): Promise<unknown>;
  /** Computes a task's result `data`; throws a ServiceError to fail it. */
  run?(job: Job): Promise<unknown>;
  /** Releases what the capability holds (models, connections); optional. */
  close?(): Promise<void>;
}

export class Providers {
  constructor(
    private readonly capabilities: Partial<Record<Family, Capability>> = {},
    /** The files the local search index keeps, where it serves searches. */
    readonly keptFiles?: KeptFiles,
    /** Engines several capabilities share, closed after them. */
    private readonly shared: readonly { close(): Promise<void> }[] = [],
  ) {}

  async close(): Promise<void> {
    await Promise.all(Object.values(this.capabilities).map((capability) => capability?.close?.()));
    await Promise.all(this.shared.map((engine) => engine.close()));
  }

  /** The handler of a synchronous operation, or 503 busy. */
  sync(operation: Operation): (call: Call) => Promise<unknown> {
    const handle = this.capabilities[operation.family]?.handle;
    if (!handle) throw unservedFamily(operation.family, operation.path);
    return handle.bind(this.capabilities[operation.family]);
  }

  /** The engine of a task operation, or 503 busy. */
  task(operation: Operation): (job: Job) => Promise<unknown> {
    const run = this.capabilities[operation.family]?.run;
    if (!run) throw unservedFamily(operation.family, operation.path);
    return run.bind(this.capabilities[operation.family]);
  }
}
