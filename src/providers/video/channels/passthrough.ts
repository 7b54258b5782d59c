/**
 * A video channel to an upstream that speaks this same interface (another Switchyard), on the
 * shared passthrough (channels/passthrough.ts): the body goes up as it is, the task is followed to
 * its end, and the video is read from the record's final envelope: `data[0].video_url` for clip
 * and maxi, `data[0].content.video_url` for dance. An extend names the upstream's own item id
 * (`upstreamVideoId` of the earlier result); mapping our item id to it is the caller's.
 */
import { operationAt } from '../../../contract/table.js';
import { SameInterface } from '../../channels/passthrough.js';
import { compact, integerOf, listOf, numberOf, objectOf, textOf } from '../../json-readers.js';
import type {
  UpstreamVideo,
  VideoBackend,
  VideoChannel,
  VideoChannelOptions,
  VideoFamily,
  VideoJob,
} from './types.js';
import { outsideContract } from './task-follower.js';
import { upstreamModel, usageOf, type Json } from './vendor-calls.js';

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

export class VideoPassthrough implements VideoBackend {
  private readonly upstream: SameInterface;

  constructor(
    private readonly channel: VideoChannel,
    options: VideoChannelOptions = {},
  ) {
    this.upstream = new SameInterface(channel, options);
  }

  async generate(job: VideoJob): Promise<UpstreamVideo> {
    const body = { ...job.body };
    if (typeof body.model === 'string') body.model = upstreamModel(this.channel, body.model, (m) => m);
    const operation = operationAt(`/${job.family}/videos`)!;
    let reported: 'queued' | 'running' | undefined;
    const { taskId, result } = await this.upstream.task(operation, body, {
      noun: 'video',
      signal: job.signal,
      onCheck: ({ state }) => {
        if (state !== reported) job.onProgress?.((reported = state));
      },
    });
    const [item] = listOf(objectOf(result.response)?.data);
    const video = videoOf(job.family, item ?? {});
    if (video.videoUrl !== '') return { ...video, upstreamTaskId: taskId };
    throw outsideContract(this.channel, `task ${taskId} succeeded without a video URL`);
  }
}
