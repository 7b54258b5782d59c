/**
 * The MiniMax channel against a fake MiniMax that checks what its documentation requires: our
 * maxi models as MiniMax's, the first frame and prompt (camera commands as written), polls to the
 * file and its download URL, and errors that MiniMax reports under HTTP 200 in `base_resp`
 * classified as the statuses they stand for, without the key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.js';
import { UpstreamFailure } from '../../src/providers/router.js';
import { MiniMax } from '../../src/providers/video/channels/minimax.js';
import type { VideoChannel } from '../../src/providers/video/channels/types.js';
import { startFakeMiniMax, type FakeMiniMax } from './fakes/minimax.js';
import { tinyMp4 } from './fakes/mp4.js';
import { VIDEO_PATH } from './fakes/server.js';
import { expectTestVideo, failureOf, jobOf, timedFailure } from './support.js';

const KEY = 'eyMiniMaxGroupKey.0123456789abcdef';
const FIRST = 'https://img.example/first.jpg';

let fake: FakeMiniMax;

beforeAll(async () => {
  fake = await startFakeMiniMax(await tinyMp4(), KEY);
});
afterAll(() => fake.close());
afterEach(async () => {
  await fake.settle();
  fake.book.reset();
});

const channel = (extra: Partial<VideoChannel> = {}): VideoChannel => ({
  name: 'minimax-main',
  base_url: fake.baseUrl,
  api_key: KEY,
  model_map: {},
  timeout_seconds: 5,
  ...extra,
});
const minimax = (extra: Partial<VideoChannel> = {}) => new MiniMax(channel(extra), { pollMs: 10 });

const textJob = () =>
  jobOf('maxi', { model: 'maxi-t2v', action: 'generate', prompt: 'a paper boat in rain' });

describe('MiniMax: requests', () => {
  it('sends the director model with its first frame and bracketed commands, then reads the file', async () => {
    const prompt = 'a fox looks up [Pan left,Zoom in] then runs [Tracking shot]';
    const job = jobOf('maxi', {
      model: 'maxi-i2v-director',
      action: 'generate',
      prompt,
      first_image_url: FIRST,
      callback_url: 'https://client.example/hook',
    });
    const video = await minimax().generate(job);
    expect(fake.to('/v1/video_generation')[0]?.body).toEqual({
      model: 'I2V-01-Director',
      prompt,
      first_frame_image: FIRST,
      prompt_optimizer: true,
    });
    const id = video.upstreamTaskId;
    expect(fake.to('/v1/query/video_generation').map((r) => r.query.get('task_id'))).toEqual([id, id, id]);
    expect(fake.to('/v1/files/retrieve').map((r) => r.query.get('file_id'))).toEqual([`${id}0`]);
    expect(job.progress).toEqual(['queued', 'running']);
    expect(video).toEqual({
      videoUrl: `${fake.baseUrl}${VIDEO_PATH}${id}0.mp4`,
      width: 320,
      height: 240,
      upstreamTaskId: id,
      upstreamVideoId: `${id}0`,
    });
    await expectTestVideo(video.videoUrl);
  });

  it('maps maxi-t2v and maxi-i2v to MiniMax’s models, the channel’s map first', async () => {
    await minimax().generate(textJob());
    await minimax().generate(
      jobOf('maxi', { model: 'maxi-i2v', action: 'generate', prompt: 'x', first_image_url: FIRST }),
    );
    await minimax({ model_map: { 'maxi-t2v': 'MiniMax-Hailuo-02' } }).generate(textJob());
    expect(fake.to('/v1/video_generation').map((r) => r.body?.model)).toEqual([
      'T2V-01',
      'I2V-01',
      'MiniMax-Hailuo-02',
    ]);
    expect(fake.to('/v1/video_generation')[0]?.body).not.toHaveProperty('first_frame_image');
  });

  it('counts Preparing and Queueing as queued', async () => {
    fake.book.pace(3, 0);
    const job = textJob();
    await minimax().generate(job);
    expect(job.progress).toEqual(['queued']);
    expect(fake.to('/v1/query/video_generation').length).toBe(4);
  });
});

describe('MiniMax: failures', () => {
  it('reports a failed task as upstream_error with MiniMax’s status_msg', async () => {
    fake.book.failNextTask('output video sensitive');
    const error = await failureOf(minimax().generate(textJob()));
    expect((error as ServiceError).code).toBe('upstream_error');
    expect(error.message).toContain('output video sensitive');
  });

  it('classifies base_resp errors answered with HTTP 200 by what they mean', async () => {
    const refused = await failureOf(minimax({ model_map: { 'maxi-t2v': 'T2V-99' } }).generate(textJob()));
    expect((refused as UpstreamFailure).status).toBe(400);
    expect(refused.message).toContain('2013 invalid params, model T2V-99 is not supported');
    const unauthorized = (await failureOf(
      minimax({ api_key: 'wrong' }).generate(textJob()),
    )) as UpstreamFailure;
    expect({ status: unauthorized.status, channelFault: unauthorized.channelFault }).toEqual({
      status: 401,
      channelFault: true,
    });
    const cases: [number, number, boolean][] = [
      [1002, 429, true],
      [1008, 402, false],
      [1026, 400, false],
      [1000, 500, true],
    ];
    for (const [code, status, retryable] of cases) {
      fake.failNextWithCode([code, `code ${code}`]);
      const error = (await failureOf(minimax().generate(textJob()))) as UpstreamFailure;
      expect({ code, status: error.status, retryable: error.retryable }).toEqual({ code, status, retryable });
    }
  });

  it('polls again after a poll answered 500 or a rate limit', async () => {
    const job = textJob();
    job.onProgress = (state) => {
      if (state === 'queued') {
        fake.failNext(500);
        fake.failNextWithCode([1002, 'rate limit']);
      }
    };
    const video = await minimax().generate(job);
    expect(video.videoUrl).toContain(VIDEO_PATH);
    expect(fake.to('/v1/query/video_generation').length).toBe(5);
  });

  it('ends with timeout once the channel’s time has passed', async () => {
    fake.book.hold(true);
    const { error, ms } = await timedFailure(minimax({ timeout_seconds: 0.3 }).generate(textJob()));
    expect((error as ServiceError).code).toBe('timeout');
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1500);
  });

  it('stops at once when the job is aborted', async () => {
    fake.book.hold(true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const job = jobOf('maxi', { model: 'maxi-t2v', action: 'generate', prompt: 'x' }, controller.signal);
    const { error, ms } = await timedFailure(minimax().generate(job));
    expect(error.message).toBe('the request was abandoned');
    expect(ms).toBeLessThan(500);
  });

  it('keeps the key out of messages, also when MiniMax repeats it', async () => {
    fake.failNext(500);
    const echoed = await failureOf(minimax().generate(textJob()));
    expect(echoed.message).toContain('refused Bearer ***');
    fake.book.failNextTask(`key ${KEY} is over its quota`);
    const failed = await failureOf(minimax().generate(textJob()));
    expect(failed.message).toContain('key *** is over its quota');
    for (const error of [echoed, failed]) expect(error.message).not.toContain(KEY);
  });
});
