/**
 * One HTTP call to an upstream channel, the same for every kind of channel: one pool of
 * keep-alive connections, the channel's time limit, and failures classified for the router (the
 * network and timeouts without a status, the upstream's refusals with theirs and the vendor's
 * code). Messages name the channel and never its key nor a credential made from it, even when an
 * upstream echoes what it was sent.
 */
import { Agent, type Dispatcher } from 'undici';
import { UpstreamFailure } from './router.js';
import { UpstreamBody } from './upstream-body.js';
import { vendorErrorOf } from './upstream-errors.js';
import { credentialsOf, keySecrets, withoutSecrets } from './secrets.js';
import type { StopSignal } from './stop-signal.js';

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
 * The origin and path of the URLs called lately: a channel calls the same few again and again,
 * and parsing one cost more than the rest of handing a call to undici. Emptied when full, since
 * the URLs that poll a task hold its id.
 */
const targets = new Map<string, { origin: string; path: string }>();
const TARGETS_KEPT = 1000;

function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (target === undefined) {
    const { origin, pathname, search } = new URL(url);
    target = { origin, path: pathname + search };
    if (targets.size >= TARGETS_KEPT) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/** An upstream's answer: its status and headers, and its body still to be read. */
export interface UpstreamAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

/** The secrets of a call: the channel's key and the credentials its headers carried. */
function secretsOf(channel: UpstreamChannel, call: UpstreamCall): string[] {
  return [...keySecrets(channel.api_key), ...credentialsOf(call.headers)];
}

/**
 * The refusal as the router reads it: the status, the vendor's code (OpenAI's spent quota is a
 * 429 like a rate limit, told apart by its code alone) and its message, secrets blanked before
 * the message is cut short, so that no token is cut past recognition.
 */
async function failureOf(
  channel: UpstreamChannel,
  call: UpstreamCall,
  response: UpstreamAnswer,
): Promise<UpstreamFailure> {
  const text = await response.body.text().catch(() => '');
  const { code, message } = vendorErrorOf(text);
  const said = withoutSecrets(message ?? text, secretsOf(channel, call)).slice(0, 300);
  return new UpstreamFailure(
    [response.statusCode, code === undefined ? '' : `${code}:`, said || `HTTP ${response.statusCode}`]
      .filter((part) => part !== '')
      .join(' '),
    response.statusCode,
    retryAfterOf(response.headers['retry-after']),
    code,
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
  signal: StopSignal,
): Promise<UpstreamAnswer> {
  const response = await dispatch(channel, url, call, signal);
  if (response.statusCode >= 400) throw await failureOf(channel, call, response);
  return response;
}

/**
 * The call through undici's dispatcher, its answer resolved once the headers are in. The client's
 * abort cancels the call at any point, a stream being read included. undici's own header timeout
 * ticks by the second: exact enough for long limits; short ones are kept by a timer of ours.
 */
function dispatch(
  channel: UpstreamChannel,
  url: string,
  call: UpstreamCall,
  signal: StopSignal,
): Promise<UpstreamAnswer> {
  const timeout = channel.timeout_seconds * 1000;
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let body: UpstreamBody | undefined;
    let late = false;
    // Until the call is on a connection there is nothing to abort: the reason waits for it.
    let abandoned: Error | undefined;
    const unreachable = (error: Error) => {
      const code = (error as NodeJS.ErrnoException).code;
      const reason =
        late || code === 'UND_ERR_HEADERS_TIMEOUT'
          ? `no answer within ${channel.timeout_seconds} s`
          : (code ?? error.message);
      reject(
        new UpstreamFailure(
          withoutSecrets(`${channel.name} unreachable (${reason})`, secretsOf(channel, call)),
        ),
      );
    };
    const abandon = (reason: Error) => {
      abandoned ??= reason;
      if (controller) controller.abort(reason);
      else unreachable(reason);
    };
    const onAbort = () => abandon(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) return onAbort();
    const timer =
      timeout < PRECISE_BELOW_MS
        ? setTimeout(() => {
            late = true;
            abandon(new Error(`no answer within ${timeout} ms`));
          }, timeout)
        : undefined;
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    signal.addEventListener('abort', onAbort);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (abandoned) started.abort(abandoned);
      },
      onResponseStart(started, statusCode, headers) {
        // The deadline is for the answer to begin: a stream then runs as long as its chunks come.
        clearTimeout(timer);
        body = new UpstreamBody(started);
        resolve({ statusCode, headers, body });
      },
      onResponseData(_, chunk) {
        body?.push(chunk);
      },
      onResponseEnd() {
        finish();
        body?.end();
      },
      onResponseError(_, error) {
        finish();
        if (body) body.fail(error);
        else unreachable(error);
      },
    };
    try {
      const { origin, path } = targetOf(url);
      upstreams.dispatch(
        {
          origin,
          path,
          method: call.method,
          headers: call.headers,
          body: call.body,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        },
        handler,
      );
    } catch (error) {
      // A URL or header undici refuses before anything is sent.
      finish();
      unreachable(error as Error);
    }
  });
}

/** POSTs `body` as JSON, with the channel's key (when it has one) as a bearer token. */
export function postJson(
  channel: UpstreamChannel,
  url: string,
  body: unknown,
  signal: StopSignal,
): Promise<UpstreamAnswer> {
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
export async function jsonOf(channel: UpstreamChannel, response: UpstreamAnswer): Promise<unknown> {
  try {
    return await response.body.json();
  } catch (error) {
    // A parser's message quotes the body, which may hold anything; say only what went wrong.
    const reason =
      error instanceof SyntaxError ? 'not JSON' : ((error as NodeJS.ErrnoException).code ?? 'read failed');
    throw new UpstreamFailure(`${channel.name} sent a broken answer (${reason})`);
  }
}
