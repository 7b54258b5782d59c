/**
 * A clip channel to Kling's public API (app.klingai.com/global/dev/document-api). Our clip body
 * picks one of Kling's task endpoints, each created by a POST and polled by a GET of
 * `…/{task_id}`, with `task_status` submitted → processing → succeed | failed and the video in
 * `task_result.videos[0]` (`url`, `duration` in seconds as text, `id`):
 *
 * - `extend` → `/v1/videos/video-extend` with `video_id`. It must be Kling's id of the video
 *   (`upstreamVideoId` of the earlier result); mapping our item id to it is the caller's.
 * - an omni model (Kling's `kling-video-o1`, or any mapped name holding "omni") →
 *   `/v1/videos/omni-video`, the only endpoint taking `element_list` and `video_list`; the start
 *   and end frames go in `image_list` typed `first_frame` and `end_frame`.
 * - a start frame → `/v1/videos/image2video` (`image`, `image_tail`); otherwise
 *   `/v1/videos/text2video`.
 *
 * Our model names are Kling's behind our prefix (`clip-v1-6` is `kling-v1-6`) unless the
 * channel's `model_map` says otherwise. `duration` goes up as text ("5", "10"), as the vendor
 * declares it. Kling derives the frame from the image, so `aspect_ratio` is only sent without
 * one. `camera_control` goes up as given: our axes' [-1, 1] lie within Kling's [-10, 10], and
 * scaling them would guess at what the spec's range means. What an endpoint has no field for is
 * refused (400) rather than silently dropped.
 *
 * The key is `ACCESS:SECRET` (a token is signed per call) or a ready bearer token.
 */
import { UpstreamFailure } from '../../router.js';
import { compact, listOf, numberOf, objectOf, textOf } from '../../json-readers.js';
import { klingToken } from './kling-auth.js';
import { followTask, outsideContract, type TaskCheck } from './task-follower.js';
import type { UpstreamVideo, VideoBackend, VideoChannel, VideoChannelOptions, VideoJob } from './types.js';
import { baseOf, callJson, upstreamModel, type Json } from './vendor-calls.js';

export const KLING_URL = 'https://api-singapore.klingai.com';

type Endpoint = 'text2video' | 'image2video' | 'video-extend' | 'omni-video';

const klingModel = (model: string) => model.replace(/^clip-/, 'kling-');
const isOmni = (model: string) => /omni|video-o\d/i.test(model);

/** The request cannot be put in Kling's terms: the router answers it as the client's mistake. */
function refuse(reason: string): never {
  throw new UpstreamFailure(`Kling ${reason}`, 400);
}

/** The validated body holds an object; a JSON string of one is read the same. */
function cameraOf(value: unknown): Json | undefined {
  return objectOf(typeof value === 'string' ? JSON.parse(value) : value);
}

function requestOf(channel: VideoChannel, body: Json): { endpoint: Endpoint; payload: Json } {
  const steering = compact({
    prompt: textOf(body.prompt),
    negative_prompt: textOf(body.negative_prompt),
    // Ours may be a numeric string; Kling's is a float.
    cfg_scale: numberOf(body.cfg_scale),
  });
  if (body.action === 'extend') {
    return { endpoint: 'video-extend', payload: { video_id: textOf(body.video_id), ...steering } };
  }
  const model = upstreamModel(channel, body.model ?? 'clip-v1', klingModel);
  const shared = compact({
    model_name: model,
    ...steering,
    mode: textOf(body.mode),
    duration: body.duration === undefined ? undefined : String(body.duration),
  });
  const start = textOf(body.start_image_url);
  const end = textOf(body.end_image_url);
  if (isOmni(model)) {
    if (body.camera_control !== undefined) refuse(`${model} takes no camera_control`);
    const videos = listOf(body.video_list).map((v) => ({ ...v, refer_type: textOf(v.refer_type) ?? 'base' }));
    const images = [
      ...(start === undefined ? [] : [{ image_url: start, type: 'first_frame' }]),
      ...(end === undefined ? [] : [{ image_url: end, type: 'end_frame' }]),
    ];
    const framed = start !== undefined || videos.some((v) => v.refer_type === 'base');
    return {
      endpoint: 'omni-video',
      payload: compact({
        ...shared,
        aspect_ratio: framed ? undefined : textOf(body.aspect_ratio),
        image_list: images.length > 0 ? images : undefined,
        element_list: body.element_list,
        video_list: videos.length > 0 ? videos : undefined,
      }),
    };
  }
  if (body.element_list !== undefined || body.video_list !== undefined) {
    refuse(`takes element_list and video_list only with an omni model (clip-video-o1), not ${model}`);
  }
  const camera = cameraOf(body.camera_control);
  if (start === undefined) {
    return {
      endpoint: 'text2video',
      payload: compact({ ...shared, aspect_ratio: textOf(body.aspect_ratio), camera_control: camera }),
    };
  }
  return {
    endpoint: 'image2video',
    payload: compact({ ...shared, image: start, image_tail: end, camera_control: camera }),
  };
}

/** Kling answers `{code, message, data}`; a code other than 0 is a failure even under HTTP 200. */
function dataOf(channel: VideoChannel, answer: Json): Json {
  if (answer.code !== 0) {
    throw new UpstreamFailure(
      `${channel.name} answered code ${String(answer.code)}: ${String(answer.message)}`,
    );
  }
  return objectOf(answer.data) ?? {};
}

function checkOf(channel: VideoChannel, data: Json): TaskCheck {
  switch (data.task_status) {
    case 'submitted':
      return { state: 'queued' };
    case 'processing':
      return { state: 'running' };
    case 'failed':
      return { state: 'failed', message: textOf(data.task_status_msg) ?? 'the task failed' };
    case 'succeed': {
      const [video = {}] = listOf(objectOf(data.task_result)?.videos);
      return {
        state: 'succeeded',
        video: compact({
          videoUrl: textOf(video.url) ?? '',
          duration: numberOf(video.duration),
          upstreamVideoId: textOf(video.id),
        }),
      };
    }
    default:
      throw outsideContract(channel, `the unknown task_status ${String(data.task_status)}`);
  }
}

export class Kling implements VideoBackend {
  private readonly base: string;

  constructor(
    private readonly channel: VideoChannel,
    private readonly options: VideoChannelOptions = {},
  ) {
    this.base = baseOf(channel, KLING_URL);
  }

  private authorization(): Record<string, string> {
    const key = this.channel.api_key;
    return key ? { authorization: `Bearer ${klingToken(key)}` } : {};
  }

  async generate(job: VideoJob): Promise<UpstreamVideo> {
    const { channel, base } = this;
    const { endpoint, payload } = requestOf(channel, job.body);
    const url = `${base}/v1/videos/${endpoint}`;
    return followTask(
      channel,
      job,
      this.options,
      {
        submit: async (signal) => {
          const data = dataOf(channel, await callJson(channel, url, this.authorization(), signal, payload));
          const id = textOf(data.task_id);
          if (id !== undefined) return id;
          throw new UpstreamFailure(`${channel.name} answered the submission without a task_id`);
        },
        check: async (id, signal) =>
          checkOf(
            channel,
            dataOf(
              channel,
              await callJson(channel, `${url}/${encodeURIComponent(id)}`, this.authorization(), signal),
            ),
          ),
      },
      (channel.api_key ?? '').split(':'),
    );
  }
}
