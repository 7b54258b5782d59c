/**
 * Following one upstream task from submission to its end, the same for every vendor and every
 * capability: the channel's time limit over the whole of it, the job's abort, polls that start at
 * a first interval and grow to a cap (a vendor counts every poll against its rate limit), and
 * failures in two kinds, on purpose. Until the upstream has accepted the task, a refusal is an
 * `UpstreamFailure`, so that the router can retry or try the next channel; once a task exists
 * upstream, every failure is a `ServiceError` (`upstream_error`, or `timeout` when the channel's
 * time passes), which the router passes on as it is: a result is never made, and paid for, twice.
 * An adapter only says how to submit and how to read one poll.
 */
import { ServiceError } from '../../errors.js';
import { UpstreamFailure } from '../router.js';
import { abortSignalOf, pause } from '../stop-signal.js';
import { withoutSecrets } from '../secrets.js';

const DEFAULT_POLL_MS = 2000;
/** Polls never wait longer than this, unless the channel's own interval is longer still. */
export const MAX_POLL_MS = 10_000;
const GROWTH = 1.5;

/** What one poll found; `result` is the adapter's reading of a finished task. */
export type TaskCheck<R> =
  | { state: 'queued' | 'running'; fraction?: number; stage?: string }
  | { state: 'succeeded'; result: R }
  /** `refused`: the upstream found the request itself at fault; its message names the field. */
  | { state: 'failed'; message: string; refused?: boolean };

export interface UpstreamTask<R> {
  /** Creates the upstream task and answers its id. */
  submit(signal: AbortSignal): Promise<string>;
  check(taskId: string, signal: AbortSignal): Promise<TaskCheck<R>>;
}

/** The channel members following needs. */
export interface FollowedChannel {
  name: string;
  api_key?: string;
  /** The longest the whole task may take, submission and polling together. */
  timeout_seconds: number;
}

export interface Following {
  /** What the task makes, for messages: `video`, `music`, `QR code`. */
  noun: string;
  /** Aborted when our own task ends (its deadline, or the client left a synchronous call). */
  signal: AbortSignal;
  /** The first wait between polls, in milliseconds (default 2000); later waits grow to a cap. */
  pollMs?: number;
  /** Secrets besides the channel's key to blank out of every message (a key's parts travel alone). */
  secrets?: readonly string[];
  /** Told each poll that finds the task still going, with how far the upstream says it is. */
  onCheck?(check: { state: 'queued' | 'running'; fraction?: number; stage?: string }): void;
}

/** An answer that no state of the upstream's contract explains: polling on would not help. */
export function outsideContract(channel: { name: string }, what: string): ServiceError {
  return new ServiceError('upstream_error', 'the upstream answered outside its contract', {
    internal: `${channel.name}: ${what}`,
  });
}

/** The wait after a poll that waited `previous`, for a channel whose first wait is `first`. */
export function nextPollDelay(previous: number, first: number): number {
  return Math.min(previous * GROWTH, Math.max(first, MAX_POLL_MS));
}

function hidden(error: unknown, secrets: readonly string[]): unknown {
  if (error instanceof UpstreamFailure)
    return new UpstreamFailure(
      withoutSecrets(error.message, secrets),
      error.status,
      error.retryAfterSeconds,
      error.code,
    );
  if (error instanceof ServiceError) {
    const { internal } = error.options;
    return new ServiceError(error.code, withoutSecrets(error.message, secrets), {
      ...error.options,
      ...(internal === undefined ? {} : { internal: withoutSecrets(internal, secrets) }),
    });
  }
  return error;
}

/**
 * Runs `call` under a signal of its own that follows `signal`. The upstream client may leave a
 * listener on the signal it is given; a task polled a hundred times must not collect a hundred.
 */
async function within<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const own = abortSignalOf(signal);
  try {
    return await call(own.signal);
  } finally {
    own.release();
  }
}

/** Submits `task` and polls it to its end; answers the upstream's task id and its result. */
export async function followUpstream<R>(
  channel: FollowedChannel,
  following: Following,
  task: UpstreamTask<R>,
): Promise<{ taskId: string; result: R }> {
  const { noun } = following;
  const hide = [channel.api_key ?? '', ...(following.secrets ?? [])];
  const limit = AbortSignal.timeout(channel.timeout_seconds * 1000);
  const signal = AbortSignal.any([following.signal, limit]);
  const ended = (where: string) =>
    following.signal.aborted
      ? new ServiceError('upstream_error', 'the request was abandoned', {
          internal: withoutSecrets(where, hide),
        })
      : new ServiceError(
          'timeout',
          `the upstream ${noun} was not ready within the channel's ${channel.timeout_seconds} s`,
          { internal: withoutSecrets(where, hide) },
        );

  let taskId: string;
  try {
    taskId = await within(signal, (s) => task.submit(s));
  } catch (error) {
    if (signal.aborted) throw ended(`${channel.name}: while submitting`);
    throw hidden(error, hide);
  }

  const first = following.pollMs ?? DEFAULT_POLL_MS;
  let wait = first;
  // The last poll that failed in a way worth another try, for the log should time run out.
  let trouble = '';
  for (;;) {
    await pause(wait, signal);
    const where = `${channel.name} task ${taskId}${trouble}`;
    if (signal.aborted) throw ended(where);
    wait = nextPollDelay(wait, first);
    let check: TaskCheck<R>;
    try {
      check = await within(signal, (s) => task.check(taskId, s));
    } catch (error) {
      if (signal.aborted) throw ended(where);
      if (error instanceof UpstreamFailure && error.retryable) {
        trouble = `, last poll: ${error.message}`;
        continue;
      }
      if (error instanceof UpstreamFailure) {
        throw hidden(
          new ServiceError('upstream_error', 'the upstream stopped answering about its task', {
            internal: `${channel.name} task ${taskId}: ${error.message}`,
          }),
          hide,
        );
      }
      throw hidden(error, hide);
    }
    if (check.state === 'succeeded') return { taskId, result: check.result };
    if (check.state === 'failed' && check.refused) {
      // What the client sent is wrong wherever it goes: said as the upstream said it.
      throw hidden(new ServiceError('bad_request', check.message), hide);
    }
    if (check.state === 'failed') {
      throw hidden(
        new ServiceError('upstream_error', `the upstream failed to generate the ${noun}: ${check.message}`, {
          internal: `${channel.name} task ${taskId}`,
        }),
        hide,
      );
    }
    following.onCheck?.(check);
  }
}
