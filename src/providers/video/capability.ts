/**
 * Video generation for one family (`/clip/videos`, `/dance/videos`, `/maxi/videos`): routed to
 * the family's upstream channels when it has any (each video then fetched into this service's
 * blob store, so its URL does not expire with the vendor's), else rendered by the local engine.
 * Every video is kept per token, so that clip `extend` can continue it by its id.
 */
import { badRequest } from '../../errors.js';
import type { VideoPool } from '../../engines/video/index.js';
import type { Capability, Job } from '../index.js';
import { stableSeed, stableUuid } from '../ids.js';
import type { ChannelRouter, RoutedChannel } from '../router.js';
import type { VideoBackend, VideoFamily } from './channels/types.js';
import { itemOf, type Finished } from './items.js';
import type { KeptVideo, VideoLibrary } from './library.js';
import { imageOf, requestOf, type VideoRequest } from './requests.js';
import type { SoundTrack } from './sound.js';
import { TierGate } from './tiers.js';

const VIDEO_BYTES = 200 * 1024 * 1024;
/** A task's progress: inputs read, then the render from RENDER_FROM to RENDERED, then its files kept. */
const RENDER_FROM = 0.1;
const RENDERED = 0.85;
const UPLOAD_FROM = 0.9;
const IMAGE_BYTES = 20 * 1024 * 1024;

export interface VideoUpstreams {
  router: ChannelRouter<RoutedChannel>;
  backends: ReadonlyMap<string, VideoBackend>;
}

export class VideoCapability implements Capability {
  private readonly gate = new TierGate();

  constructor(
    private readonly family: VideoFamily,
    private readonly library: VideoLibrary,
    private readonly engine: VideoPool,
    private readonly sound: SoundTrack,
    private readonly upstreams?: VideoUpstreams,
  ) {}

  async run(job: Job): Promise<unknown> {
    job.advance(0, 'read');
    const request = await requestOf(this.family, job, this.engine);
    const id = itemIdOf(job.taskId);
    const release = await this.gate.enter(request.flex, job.signal);
    try {
      const finished = this.upstreams
        ? await this.upstream(job, request, id)
        : await this.local(job, request, id);
      const item = itemOf(this.family, finished.video, job.input);
      await this.library.save(job.tokenId, job.taskId, { id, item, source: finished.source });
      return [item];
    } finally {
      release();
    }
  }

  private async previous(job: Job, id: string): Promise<KeptVideo> {
    const video = await this.library.video(job.tokenId, id);
    if (!video) throw badRequest([{ field: 'video_id', rule: 'names no video of this token' }]);
    return video;
  }

  private async local(
    job: Job,
    request: VideoRequest,
    id: string,
  ): Promise<{ video: Finished; source: KeptVideo['source'] }> {
    const spec = { ...request.spec, seed: request.spec.seed ?? seedOf(job.taskId) };
    const earlier = request.continues ? await this.previous(job, request.continues) : undefined;
    if (earlier) {
      spec.continueFrom = await imageOf(job, this.engine, 'video_id', earlier.source.lastFrameUrl);
      spec.prompt = spec.prompt || earlier.source.prompt;
      // An extension keeps the size and settings of what it continues, so that the two join.
      spec.width = earlier.source.width;
      spec.height = earlier.source.height;
      spec.quality = earlier.source.quality ?? spec.quality;
    }
    if (request.reference) {
      job.advance(0.02, 'reference');
      const bytes = await job.fetchInput('video_list[0].video_url', request.reference.url, VIDEO_BYTES);
      const reference = await this.engine.run('referenceOf', bytes, request.reference.use, spec.frames);
      if ('problem' in reference)
        throw badRequest([{ field: 'video_list[0].video_url', rule: reference.problem }]);
      spec.reference = reference.video;
      if (request.reference.keepSound && reference.sound) spec.audio = Buffer.from(reference.sound);
    }
    if (request.withSound) {
      job.advance(0.05, 'sound');
      spec.audio = await this.sound.trackFor(spec.prompt, spec.seed, spec.frames / spec.fps);
    }
    // The frames painted and encoded are most of the work: they move the task from RENDER_FROM on.
    // The spec's images and reference frames move to the render's thread: nothing here reads them after.
    const rendered = await this.engine.runWith(
      {
        onProgress: (progress) =>
          job.advance(RENDER_FROM + (RENDERED - RENDER_FROM) * progress.fraction, progress.stage),
        move: true,
        // A cancelled or expired task stops painting and encoding, and frees its thread.
        signal: job.signal,
      },
      'renderVideo',
      spec,
    );
    job.advance(RENDERED, earlier ? 'join' : 'upload');
    // An extension is the longer video: what it continues, then the new part.
    const mp4 = earlier
      ? await this.engine.run(
          'joinVideos',
          await job.fetchInput('video_id', String(earlier.item.video_url), VIDEO_BYTES),
          rendered.mp4,
        )
      : rendered.mp4;
    const duration = rendered.duration + (earlier ? Number(earlier.item.duration) : 0);
    job.advance(UPLOAD_FROM, 'upload');
    const [videoUrl, lastFrameUrl, coverUrl] = await Promise.all([
      job.saveFile(Buffer.from(mp4), 'mp4'),
      job.saveFile(Buffer.from(rendered.lastFrame), 'png'),
      this.engine.run('firstFrame', mp4).then((png) => job.saveFile(Buffer.from(png), 'png')),
    ]);
    return {
      video: {
        id,
        model: request.model,
        prompt: request.prompt,
        videoUrl,
        coverUrl,
        ...(request.returnLastFrame ? { lastFrameUrl } : {}),
        width: rendered.width,
        height: rendered.height,
        fps: rendered.fps,
        duration,
        seed: spec.seed,
        resolution: request.resolution,
        ratio: request.ratio,
        unknownNouns: rendered.unknownNouns,
        standIns: rendered.standIns,
      },
      source: {
        prompt: spec.prompt,
        lastFrameUrl,
        width: rendered.width,
        height: rendered.height,
        quality: spec.quality,
      },
    };
  }

  private async upstream(
    job: Job,
    request: VideoRequest,
    id: string,
  ): Promise<{ video: Finished; source: KeptVideo['source'] }> {
    const { router, backends } = this.upstreams!;
    const body = { ...job.input };
    if (request.continues) {
      const earlier = await this.previous(job, request.continues);
      if (!earlier.source.upstream) {
        throw badRequest([
          {
            field: 'video_id',
            rule: 'names a video made on this server, which an upstream channel cannot extend',
          },
        ]);
      }
      body.video_id = earlier.source.upstream.videoId;
    }
    let channelName = '';
    // The vendor renders; this service only waits for it, then fetches the files.
    job.advance(0.05, 'upstream');
    const caller = { token: job.tokenId, signal: job.signal };
    const video = await router.run(this.family, request.model, caller, (channel) => {
      const backend = backends.get(channel.name);
      if (!backend) throw new Error(`channel ${channel.name} has no backend`);
      channelName = channel.name;
      return backend.generate({ family: this.family, body, signal: job.signal });
    });
    // The vendor's URLs expire: the files are fetched into this service's store.
    job.advance(UPLOAD_FROM, 'upload');
    const fetched = (field: string, url: string, bytes: number, extension: string) =>
      job.fetchInput(field, url, bytes).then((data) => job.saveFile(data, extension));
    const [videoUrl, coverUrl, lastFrameUrl] = await Promise.all([
      fetched('video_url', video.videoUrl, VIDEO_BYTES, 'mp4'),
      video.coverUrl ? fetched('image_url', video.coverUrl, IMAGE_BYTES, 'png') : Promise.resolve(''),
      video.lastFrameUrl
        ? fetched('last_frame_url', video.lastFrameUrl, IMAGE_BYTES, 'png')
        : Promise.resolve(undefined),
    ]);
    const width = video.width ?? request.spec.width;
    const height = video.height ?? request.spec.height;
    const fps = video.fps ?? request.spec.fps;
    return {
      video: {
        id,
        model: request.model,
        prompt: request.prompt,
        videoUrl,
        coverUrl,
        ...(lastFrameUrl ? { lastFrameUrl } : {}),
        width,
        height,
        fps,
        duration: video.duration ?? request.spec.frames / request.spec.fps,
        seed: video.seed ?? request.spec.seed ?? 0,
        resolution: video.resolution ?? request.resolution,
        ratio: video.ratio ?? request.ratio,
        ...(video.usage ? { usage: video.usage } : {}),
      },
      source: {
        prompt: request.prompt,
        lastFrameUrl: lastFrameUrl ?? '',
        width,
        height,
        ...(video.upstreamVideoId
          ? { upstream: { channel: channelName, videoId: video.upstreamVideoId } }
          : {}),
      },
    };
  }
}

const itemIdOf = (taskId: string) => stableUuid(`video:${taskId}`);
const seedOf = (taskId: string) => stableSeed(`video:${taskId}`);
