/**
 * A maxi channel to MiniMax's Hailuo video generation (platform.minimax.io/docs, "Video
 * Generation", "Query Video Generation Task", "Retrieve File", "Error Codes"): a task is created
 * by `POST /v1/video_generation` (`model`, `prompt`, `first_frame_image`, `prompt_optimizer`),
 * read by `GET /v1/query/video_generation?task_id=` whose `status` goes Preparing / Queueing →
 * Processing → Success (with `file_id`, `video_width`, `video_height`) or Fail, and the file's
 * address is read by `GET /v1/files/retrieve?file_id=` (`file.download_url`).
 *
 * MiniMax answers its errors with HTTP 200 and `base_resp.status_code` other than 0; each code
 * is given the HTTP status that makes the router do the right thing with it (see `STATUS`).
 * Our models map to MiniMax's by default (maxi-t2v → T2V-01, maxi-i2v → I2V-01,
 * maxi-i2v-director → I2V-01-Director), the channel's `model_map` first. The director's camera
 * commands are already in MiniMax's bracket form and go up inside the prompt as written.
 * `prompt_optimizer` is sent as MiniMax's documented default (true), so that the request says
 * what it asks for whatever the vendor's default becomes.
 */
import { UpstreamFailure } from '../../router.js';
import { compact, integerOf, objectOf, textOf } from '../../json-readers.js';
import { followTask, outsideContract, type TaskCheck } from './task-follower.js';
import type { UpstreamVideo, VideoBackend, VideoChannel, VideoChannelOptions, VideoJob } from './types.js';
import { baseOf, bearer, callJson, upstreamModel, type Json } from './vendor-calls.js';

export const MINIMAX_URL = 'https://api.minimax.io';

const MODELS: Record<string, string> = {
  'maxi-t2v': 'T2V-01',
  'maxi-i2v': 'I2V-01',
  'maxi-i2v-director': 'I2V-01-Director',
};

/**
 * The HTTP status each documented `base_resp` code stands for: rate and token limits 429 (try
 * again), a rejected key 401 and an empty balance 402 (this channel's account, try the next),
 * invalid or sensitive input 400 (the client's to fix), MiniMax's own faults 5xx. A code not
 * documented is taken as a fault upstream.
 */
const STATUS: Record<number, number> = {
  1000: 500,
  1001: 504,
  1002: 429,
  1004: 401,
  1008: 402,
  1024: 500,
  1026: 400,
  1027: 400,
  1033: 500,
  1039: 429,
  2013: 400,
  2049: 401,
};

/** The HTTP status an answer stands for: 200 when its `base_resp` reports no error. */
export function minimaxStatusOf(answer: Json): number {
  const code = integerOf(objectOf(answer.base_resp)?.status_code) ?? 0;
  return code === 0 ? 200 : (STATUS[code] ?? 502);
}

/** The answer, unless its `base_resp` reports an error. */
function answerOf(channel: VideoChannel, answer: Json): Json {
  const status = minimaxStatusOf(answer);
  if (status === 200) return answer;
  const base = objectOf(answer.base_resp);
  const message =
    `${channel.name} answered ${integerOf(base?.status_code)} ${textOf(base?.status_msg) ?? ''}`.trim();
  throw new UpstreamFailure(message, status);
}

export class MiniMax implements VideoBackend {
  private readonly base: string;

  constructor(
    private readonly channel: VideoChannel,
    private readonly options: VideoChannelOptions = {},
  ) {
    this.base = baseOf(channel, MINIMAX_URL);
  }

  private async check(id: string, signal: AbortSignal): Promise<TaskCheck> {
    const { channel, base } = this;
    const auth = bearer(channel.api_key);
    const query = new URLSearchParams({ task_id: id });
    const task = await callJson(channel, `${base}/v1/query/video_generation?${query}`, auth, signal);
    const status = textOf(task.status);
    // A failed task may carry its reason in base_resp: the task's failure then, not the poll's.
    if (status === 'Fail') {
      const base = objectOf(task.base_resp);
      const reason = integerOf(base?.status_code) ? textOf(base?.status_msg) : undefined;
      return { state: 'failed', message: reason ?? 'the task failed' };
    }
    answerOf(channel, task);
    if (status === 'Preparing' || status === 'Queueing') return { state: 'queued' };
    if (status === 'Processing') return { state: 'running' };
    if (status !== 'Success') throw outsideContract(channel, `the unknown status ${String(status)}`);
    const fileId = textOf(task.file_id);
    if (fileId === undefined) throw outsideContract(channel, `task ${id} succeeded without a file_id`);
    const file = answerOf(
      channel,
      await callJson(
        channel,
        `${base}/v1/files/retrieve?${new URLSearchParams({ file_id: fileId })}`,
        auth,
        signal,
      ),
    );
    return {
      state: 'succeeded',
      video: compact({
        videoUrl: textOf(objectOf(file.file)?.download_url) ?? '',
        width: integerOf(task.video_width),
        height: integerOf(task.video_height),
        upstreamVideoId: fileId,
      }),
    };
  }

  async generate(job: VideoJob): Promise<UpstreamVideo> {
    const { channel, base } = this;
    const body = job.body;
    const payload = compact({
      model: upstreamModel(channel, body.model, (m) => MODELS[m] ?? m),
      prompt: textOf(body.prompt),
      first_frame_image: textOf(body.first_image_url),
      prompt_optimizer: true,
    });
    return followTask(channel, job, this.options, {
      submit: async (signal) => {
        const answer = answerOf(
          channel,
          await callJson(channel, `${base}/v1/video_generation`, bearer(channel.api_key), signal, payload),
        );
        const id = textOf(answer.task_id);
        if (id !== undefined) return id;
        throw new UpstreamFailure(`${channel.name} answered the submission without a task_id`);
      },
      check: (id, signal) => this.check(id, signal),
    });
  }
}
