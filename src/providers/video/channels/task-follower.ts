/**
 * Following one upstream video task from submission to its end, the same for every vendor: the
 * channel's time limit over the whole of it, the job's abort, polls that start at the channel's
 * interval and grow to a cap (a video takes minutes; a vendor counts every poll against its rate
 * limit), and failures in the two kinds `types.ts` describes. A vendor adapter only says how to
 * submit and how to read one poll.
 */
import { ServiceError } from '../../../errors.js';
import { UpstreamFailure } from '../../router.js';
import type { UpstreamVideo, VideoChannel, VideoChannelOptions, VideoJob } from './types.js';

const DEFAULT_POLL_MS = 2000;
/** Polls never wait longer than this, unless the channel's own interval is longer still. */
export const MAX_POLL_MS = 10_000;
const GROWTH = 1.5;

/** What one poll found. */
export type TaskCheck =
  | { state: 'queued' | 'running' }
  /** An empty `videoUrl` is the upstream's fault, reported as such. */
  | { state: 'succeeded'; video: Omit<UpstreamVideo, 'upstreamTaskId'> }
  | { state: 'failed'; message: string };

export interface VendorTask {
  /** Creates the upstream task and answers its id. */
  submit(signal: AbortSignal): Promise<string>;
  check(taskId: string, signal: AbortSignal): Promise<TaskCheck>;
}

/** An answer that no state of the upstream's contract explains: polling on would not help. */
export function outsideContract(channel: VideoChannel, what: string): ServiceError {
  return new ServiceError('upstream_error', 'the upstream answered outside its contract', {
    internal: `${channel.name}: ${what}`,
  });
}

/** The wait after a poll that waited `previous`, for a channel whose first wait is `first`. */
export function nextPollDelay(previous: number, first: number): number {
  return Math.min(previous * GROWTH, Math.max(first, MAX_POLL_MS));
}

/** A signed bearer token (a JWT) made per call cannot be listed in advance; its shape can. */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;

/** `text` with every secret, and anything shaped like a JWT, blanked out. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  // Longest first: a key of the form ACCESS:SECRET is blanked whole before its parts.
  const ordered = secrets.filter((s) => s !== '').sort((a, b) => b.length - a.length);
  return ordered.reduce((out, secret) => out.split(secret).join('***'), text).replace(JWT, '***');
}

function hidden(error: unknown, secrets: readonly string[]): unknown {
  if (error instanceof UpstreamFailure)
    return new UpstreamFailure(withoutSecrets(error.message, secrets), error.status);
  if (error instanceof ServiceError) {
    const { internal } = error.options;
    return new ServiceError(error.code, withoutSecrets(error.message, secrets), {
      ...error.options,
      ...(internal === undefined ? {} : { internal: withoutSecrets(internal, secrets) }),
    });
  }
  return error;
}

/** Resolves after `ms`, or at once when `signal` aborts; leaves no listener behind either way. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `call` under a signal of its own that follows `signal`. The upstream client may leave a
 * listener on the signal it is given; a task polled a hundred times must not collect a hundred.
 */
async function within<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}

/**
 * Submits `task` and polls it to its end. `secrets` are blanked out of every message besides the
 * channel's key (a vendor's key may be made of parts that travel alone).
 */
export async function followTask(
  channel: VideoChannel,
  job: VideoJob,
  options: VideoChannelOptions,
  task: VendorTask,
  secrets: readonly string[] = [],
): Promise<UpstreamVideo> {
  const hide = [channel.api_key ?? '', ...secrets];
  const limit = AbortSignal.timeout(channel.timeout_seconds * 1000);
  const signal = AbortSignal.any([job.signal, limit]);
  const ended = (where: string) =>
    job.signal.aborted
      ? new ServiceError('upstream_error', 'the request was abandoned', {
          internal: withoutSecrets(where, hide),
        })
      : new ServiceError(
          'timeout',
          `the upstream video was not ready within the channel's ${channel.timeout_seconds} s`,
          { internal: withoutSecrets(where, hide) },
        );

  let taskId: string;
  try {
    taskId = await within(signal, (s) => task.submit(s));
  } catch (error) {
    if (signal.aborted) throw ended(`${channel.name}: while submitting`);
    throw hidden(error, hide);
  }

  const first = options.pollMs ?? DEFAULT_POLL_MS;
  let wait = first;
  let reported: 'queued' | 'running' | undefined;
  // The last poll that failed in a way worth another try, for the log should time run out.
  let trouble = '';
  for (;;) {
    await pause(wait, signal);
    const where = `${channel.name} task ${taskId}${trouble}`;
    if (signal.aborted) throw ended(where);
    wait = nextPollDelay(wait, first);
    let check: TaskCheck;
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
    if (check.state === 'succeeded') {
      if (check.video.videoUrl !== '') return { ...check.video, upstreamTaskId: taskId };
      throw outsideContract(channel, `task ${taskId} succeeded without a video URL`);
    }
    if (check.state === 'failed') {
      throw hidden(
        new ServiceError('upstream_error', `the upstream failed to generate the video: ${check.message}`, {
          internal: `${channel.name} task ${taskId}`,
        }),
        hide,
      );
    }
    if (check.state !== reported) job.onProgress?.((reported = check.state));
  }
}
