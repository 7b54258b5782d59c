/**
 * One HTTP call to an upstream channel, the same for every kind of channel: one pool of
 * keep-alive connections, the channel's time limit, and failures classified for the router (the
 * network and timeouts without a status, the upstream's refusals with theirs). Messages name the
 * channel and never its key, even when an upstream echoes the key back.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { UpstreamFailure } from './router.js';

export interface UpstreamChannel {
  name: string;
  api_key?: string;
  timeout_seconds: number;
}

interface UpstreamCall {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Below this, a channel's timeout is kept by our own timer rather than undici's. */
const PRECISE_BELOW_MS = 2000;

/** One pool of keep-alive connections for all upstream channels. */
const upstreams: Dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 256 });

/**
 * A time limit for an answer to begin. undici's own timeouts tick coarsely (around a second),
 * too coarse for short channel timeouts; this one is exact and is lifted once the answer's
 * headers are in (a stream then runs as long as its chunks keep coming).
 */
function headerDeadline(signal: AbortSignal, ms: number): { signal: AbortSignal; arrived(): void } {
  // One controller for both causes: AbortSignal.any costs more than this on every request.
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const handle = setTimeout(() => controller.abort(new Error(`no answer within ${ms} ms`)), ms);
  return {
    signal: controller.signal,
    // The client's abort is still forwarded after this: it cancels a stream being read.
    arrived: () => clearTimeout(handle),
  };
}

/** `message` with the channel's key blanked out. */
function redacted(channel: UpstreamChannel, message: string): string {
  return channel.api_key ? message.split(channel.api_key).join('***') : message;
}

async function failureOf(
  channel: UpstreamChannel,
  response: Dispatcher.ResponseData,
): Promise<UpstreamFailure> {
  const text = await response.body.text().catch(() => '');
  let message = text.slice(0, 300) || `HTTP ${response.statusCode}`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string; code?: unknown } | string };
    const error = parsed.error;
    if (typeof error === 'string') message = error;
    else if (error?.message) message = error.message;
    // OpenAI's spent quota is a 429 like a rate limit, told apart by its code alone.
    if (typeof error === 'object' && error?.code === 'insufficient_quota') message += ' (insufficient_quota)';
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return new UpstreamFailure(
    redacted(channel, `${response.statusCode} ${message}`),
    response.statusCode,
    retryAfterOf(response.headers['retry-after']),
  );
}

/** Retry-After in seconds, given as seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterOf(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Sends `call` to `url`; an answer under 400 is returned with its body still to be read. */
export async function callUpstream(
  channel: UpstreamChannel,
  url: string,
  call: UpstreamCall,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  const timeout = channel.timeout_seconds * 1000;
  // undici's own header timeout ticks by the second: exact enough for long limits, not short ones.
  const deadline = timeout < PRECISE_BELOW_MS ? headerDeadline(signal, timeout) : undefined;
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      ...call,
      dispatcher: upstreams,
      signal: deadline?.signal ?? signal,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const late = (deadline?.signal.aborted === true && !signal.aborted) || code === 'UND_ERR_HEADERS_TIMEOUT';
    const reason = late
      ? `no answer within ${channel.timeout_seconds} s`
      : (code ?? (error as Error).message);
    throw new UpstreamFailure(redacted(channel, `${channel.name} unreachable (${reason})`));
  } finally {
    deadline?.arrived();
  }
  if (response.statusCode >= 400) throw await failureOf(channel, response);
  return response;
}

/** POSTs `body` as JSON, with the channel's key (when it has one) as a bearer token. */
export function postJson(
  channel: UpstreamChannel,
  url: string,
  body: unknown,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return callUpstream(
    channel,
    url,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(channel.api_key ? { authorization: `Bearer ${channel.api_key}` } : {}),
      },
      body: JSON.stringify(body),
    },
    signal,
  );
}

/** The answer's body as JSON; a body that is not JSON is worth trying elsewhere (no status). */
export async function jsonOf(channel: UpstreamChannel, response: Dispatcher.ResponseData): Promise<unknown> {
  try {
    return await response.body.json();
  } catch (error) {
    // A parser's message quotes the body, which may hold anything; say only what went wrong.
    const reason =
      error instanceof SyntaxError ? 'not JSON' : ((error as NodeJS.ErrnoException).code ?? 'read failed');
    throw new UpstreamFailure(`${channel.name} sent a broken answer (${reason})`);
  }
}
