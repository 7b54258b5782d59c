/**
 * Following one upstream video task (channels/follow.ts, shared by every capability) with what a
 * video channel adds: polls read as a video, a success without a video URL is the upstream's
 * fault, and the job hears of queued and running once per change.
 */
import { followUpstream, outsideContract, type TaskCheck as Check } from '../../channels/follow.js';
import type { UpstreamVideo, VideoChannel, VideoChannelOptions, VideoJob } from './types.js';

export { MAX_POLL_MS, nextPollDelay, outsideContract } from '../../channels/follow.js';

/** What one poll found: the finished task's video, as the vendor describes it. */
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

type Video = Omit<UpstreamVideo, 'upstreamTaskId'>;

function checkOf(check: TaskCheck): Check<Video> {
  return check.state === 'succeeded' ? { state: 'succeeded', result: check.video } : check;
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
  let reported: 'queued' | 'running' | undefined;
  const { taskId, result } = await followUpstream(
    channel,
    {
      noun: 'video',
      signal: job.signal,
      secrets,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      onCheck: ({ state }) => {
        if (state !== reported) job.onProgress?.((reported = state));
      },
    },
    {
      submit: (signal) => task.submit(signal),
      check: async (id, signal) => checkOf(await task.check(id, signal)),
    },
  );
  if (result.videoUrl !== '') return { ...result, upstreamTaskId: taskId };
  throw outsideContract(channel, `task ${taskId} succeeded without a video URL`);
}
