/**
 * The passthrough channel against a fake of this same interface, which validates submissions by
 * our contract and answers task records our contract describes: the body goes up asynchronously
 * without our client's callback, the record is polled through /{family}/tasks, the video is read
 * from each family's envelope, and failures arrive classified and without the key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.js';
import { UpstreamFailure } from '../../src/providers/router.js';
import { VideoPassthrough } from '../../src/providers/video/channels/passthrough.js';
import type { VideoChannel } from '../../src/providers/video/channels/types.js';
import { tinyMp4 } from './fakes/mp4.js';
import { VIDEO_PATH } from './fakes/server.js';
import { startFakeSwitchyard, type FakeSwitchyard } from './fakes/switchyard.js';
import { expectTestVideo, failureOf, jobOf, timedFailure } from './support.js';

const KEY = 'sy-live-9d8c7b6a5f4e3d2c1b0a';

let fake: FakeSwitchyard;

beforeAll(async () => {
  fake = await startFakeSwitchyard(await tinyMp4(), KEY);
});
afterAll(() => fake.close());
// A poll still on its way when a test abandoned its job must not take the next test's scripted
// failure: settle() waits for it, then forgets the failures and what was received.
afterEach(async () => {
  await fake.settle();
  fake.book.reset();
});

const channel = (extra: Partial<VideoChannel> = {}): VideoChannel => ({
  name: 'switchyard-eu',
  base_url: `${fake.baseUrl}/`,
  api_key: KEY,
  model_map: {},
  timeout_seconds: 5,
  ...extra,
});
const passthrough = (extra: Partial<VideoChannel> = {}) =>
  new VideoPassthrough(channel(extra), { pollMs: 10 });

const clipJob = () => jobOf('clip', { action: 'text2video', prompt: 'a tram at night' });

describe('Passthrough: the three families', () => {
  it('sends a clip asynchronously without our callback, polls its record and reads data[0]', async () => {
    const job = jobOf('clip', {
      action: 'text2video',
      prompt: 'a tram at night',
      duration: 10,
      callback_url: 'https://client.example/hook',
    });
    const video = await passthrough({ model_map: { 'clip-v1': 'clip-v2-master' } }).generate(job);
    const [sent] = fake.to('/clip/videos');
    expect(sent?.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toEqual({
      action: 'text2video',
      prompt: 'a tram at night',
      duration: 10,
      mode: 'std',
      model: 'clip-v2-master',
      aspect_ratio: '16:9',
      async: true,
    });
    const id = video.upstreamTaskId;
    expect(fake.to('/clip/tasks').map((r) => r.body)).toEqual(Array(3).fill({ action: 'retrieve', id }));
    expect(job.progress).toEqual(['queued', 'running']);
    expect(video).toEqual({
      videoUrl: `${fake.baseUrl}${VIDEO_PATH}${id}.mp4`,
      coverUrl: `${fake.baseUrl}${VIDEO_PATH}${id}.jpg`,
      duration: 10,
      upstreamTaskId: id,
      upstreamVideoId: `${id}-0`,
    });
    await expectTestVideo(video.videoUrl);
  });

  it('reads a dance video from content, with its last frame and metadata', async () => {
    const job = jobOf('dance', {
      model: 'dance-1-0-pro-250528',
      content: [{ type: 'text', text: 'a dancer spins --dur 6' }],
      duration: 6,
      return_last_frame: true,
    });
    const video = await passthrough().generate(job);
    expect(fake.to('/dance/videos')[0]?.body).toMatchObject({
      model: 'dance-1-0-pro-250528',
      content: [{ type: 'text', text: 'a dancer spins --dur 6' }],
      return_last_frame: true,
      async: true,
    });
    const id = video.upstreamTaskId;
    expect(video).toEqual({
      videoUrl: `${fake.baseUrl}${VIDEO_PATH}${id}.mp4`,
      lastFrameUrl: `${fake.baseUrl}${VIDEO_PATH}${id}.png`,
      duration: 6,
      fps: 24,
      seed: 77,
      resolution: '720p',
      ratio: '16:9',
      usage: { completion_tokens: 4000, total_tokens: 4000 },
      upstreamTaskId: id,
      upstreamVideoId: `${id}-0`,
    });
  });

  it('sends maxi to /maxi/videos and polls /maxi/tasks', async () => {
    const job = jobOf('maxi', { model: 'maxi-t2v', action: 'generate', prompt: 'a comet [Zoom in]' });
    const video = await passthrough().generate(job);
    expect(fake.to('/maxi/videos')[0]?.body).toEqual({
      model: 'maxi-t2v',
      action: 'generate',
      prompt: 'a comet [Zoom in]',
      async: true,
    });
    expect(fake.to('/maxi/tasks').length).toBe(3);
    expect(video.videoUrl).toBe(`${fake.baseUrl}${VIDEO_PATH}${video.upstreamTaskId}.mp4`);
  });
});

describe('Passthrough: failures', () => {
  it('reports a failed task as upstream_error with the upstream’s error message', async () => {
    fake.book.failNextTask('no engine could render this prompt');
    const error = await failureOf(passthrough().generate(clipJob()));
    expect((error as ServiceError).code).toBe('upstream_error');
    expect(error.message).toContain('no engine could render this prompt');
  });

  it('passes a submission the upstream refuses on with its status and message', async () => {
    const refused = await failureOf(passthrough({ model_map: { 'clip-v1': 'clip-v9' } }).generate(clipJob()));
    expect((refused as UpstreamFailure).status).toBe(400);
    expect(refused.message).toContain('model: must be one of');
    const unauthorized = (await failureOf(
      passthrough({ api_key: 'wrong' }).generate(clipJob()),
    )) as UpstreamFailure;
    expect({ status: unauthorized.status, channelFault: unauthorized.channelFault }).toEqual({
      status: 401,
      channelFault: true,
    });
    for (const status of [429, 500]) {
      fake.failNext(status);
      const error = (await failureOf(passthrough().generate(clipJob()))) as UpstreamFailure;
      expect({ status: error.status, retryable: error.retryable }).toEqual({ status, retryable: true });
    }
  });

  it('polls again after a poll answered 500 or 429', async () => {
    const job = clipJob();
    job.onProgress = (state) => state === 'queued' && fake.failNext(500, 429);
    const video = await passthrough().generate(job);
    expect(video.videoUrl).toContain(VIDEO_PATH);
    expect(fake.to('/clip/tasks').length).toBe(5);
  });

  it('ends with timeout once the channel’s time has passed', async () => {
    fake.book.hold(true);
    const { error, ms } = await timedFailure(passthrough({ timeout_seconds: 0.3 }).generate(clipJob()));
    expect((error as ServiceError).code).toBe('timeout');
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1500);
  });

  it('stops at once when the job is aborted', async () => {
    fake.book.hold(true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const job = jobOf('clip', { action: 'text2video', prompt: 'x' }, controller.signal);
    const { error, ms } = await timedFailure(passthrough().generate(job));
    expect(error.message).toBe('the request was abandoned');
    expect(ms).toBeLessThan(500);
  });

  it('keeps the key out of messages, also when the upstream repeats it', async () => {
    fake.failNext(429);
    const echoed = await failureOf(passthrough().generate(clipJob()));
    expect(echoed.message).toContain('refused Bearer ***');
    fake.book.failNextTask(`token ${KEY} is used up`);
    const failed = await failureOf(passthrough().generate(clipJob()));
    expect(failed.message).toContain('token *** is used up');
    for (const error of [echoed, failed]) expect(error.message).not.toContain(KEY);
  });
});
