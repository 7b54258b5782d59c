/**
 * A video channel to an upstream that speaks this same interface (another Switchyard): the body
 * goes up as it is, with `"async": true` so that the answer is a task id at once, and the task is
 * followed through `/{family}/tasks` until its record is terminal. The video is read from the
 * record's final envelope: `data[0].video_url` for clip and maxi, `data[0].content.video_url`
 * for dance. Our client's `callback_url` stays here: the upstream must not call our client. An
 * extend names the upstream's own item id (`upstreamVideoId` of the earlier result); mapping our
 * item id to it is the caller's.
 */
import { UpstreamFailure } from '../../router.js';
import { compact, integerOf, listOf, numberOf, objectOf, textOf } from '../../serp/shape.js';
import { followTask, outsideContract, type TaskCheck } from './task-follower.js';
import type {
  UpstreamVideo,
  VideoBackend,
  VideoChannel,
  VideoChannelOptions,
  VideoFamily,
  VideoJob,
} from './types.js';
import { baseOf, bearer, callJson, upstreamModel, usageOf, type Json } from './vendor-calls.js';

/** Our task states that end a task, each but `succeeded` a failure. */
const ENDED = new Set(['failed', 'expired', 'canceled']);

/** The video of the first result item; a dance item nests its URLs in `content`. */
function videoOf(family: VideoFamily, item: Json): Omit<UpstreamVideo, 'upstreamTaskId'> {
  const content = objectOf(item.content) ?? {};
  const dance = family === 'dance';
  return compact({
    videoUrl: textOf(dance ? content.video_url : item.video_url) ?? '',
    coverUrl: textOf(item.image_url) ?? textOf(item.cover_url),
    lastFrameUrl: textOf(dance ? content.last_frame_url : item.last_frame_url),
    duration: numberOf(item.duration),
    width: integerOf(item.width),
    height: integerOf(item.height),
    fps: numberOf(item.framespersecond) ?? numberOf(item.fps),
    seed: integerOf(item.seed),
    resolution: textOf(item.resolution),
    ratio: textOf(item.ratio),
    usage: usageOf(item.usage),
    upstreamVideoId: textOf(item.id),
  });
}

function checkOf(channel: VideoChannel, family: VideoFamily, record: Json): TaskCheck {
  const state = textOf(record.state);
  const response = objectOf(record.response) ?? {};
  if (state === 'queued' || state === 'running') return { state };
  if (state === 'succeeded') {
    const [item] = listOf(response.data);
    return { state, video: videoOf(family, item ?? {}) };
  }
  if (state !== undefined && ENDED.has(state)) {
    const error = objectOf(response.error) ?? objectOf(record.error);
    return { state: 'failed', message: textOf(error?.message) ?? `the task ended ${state}` };
  }
  throw outsideContract(channel, `a task record in the unknown state ${String(state)}`);
}

export class VideoPassthrough implements VideoBackend {
  private readonly base: string;

  constructor(
    private readonly channel: VideoChannel,
    private readonly options: VideoChannelOptions = {},
  ) {
    this.base = baseOf(channel);
  }

  async generate(job: VideoJob): Promise<UpstreamVideo> {
    const { channel, base } = this;
    const { callback_url: _ours, ...body } = job.body;
    if (typeof body.model === 'string') body.model = upstreamModel(channel, body.model, (m) => m);
    const auth = bearer(channel.api_key);
    return followTask(channel, job, this.options, {
      submit: async (signal) => {
        const answer = await callJson(channel, `${base}/${job.family}/videos`, auth, signal, {
          ...body,
          async: true,
        });
        const id = textOf(answer.task_id);
        if (answer.success === true && id !== undefined) return id;
        throw new UpstreamFailure(`${channel.name} answered the submission without a task id`);
      },
      check: async (id, signal) =>
        checkOf(
          channel,
          job.family,
          await callJson(channel, `${base}/${job.family}/tasks`, auth, signal, { action: 'retrieve', id }),
        ),
    });
  }
}
