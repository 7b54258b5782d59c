/**
 * The Seedance channel against a fake ModelArk that checks what its documentation requires: our
 * dance body as `model` and `content` with one set of text commands (body fields winning over the
 * prompt's flags), the images with their roles, polls to the video and its metadata, and failures
 * in Ark's error shape classified and stripped of the key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.js';
import { UpstreamFailure } from '../../src/providers/router.js';
import { Seedance } from '../../src/providers/video/channels/seedance.js';
import type { VideoChannel } from '../../src/providers/video/channels/types.js';
import { tinyMp4 } from './fakes/mp4.js';
import { startFakeSeedance, type FakeSeedance } from './fakes/seedance.js';
import { VIDEO_PATH } from './fakes/server.js';
import { expectTestVideo, failureOf, jobOf, timedFailure } from './support.js';

const KEY = 'ark-7f3c0d9e-live-key-0123456789';
const FIRST = 'https://img.example/first.png';
const LAST = 'https://img.example/last.png';

let fake: FakeSeedance;

beforeAll(async () => {
  fake = await startFakeSeedance(await tinyMp4(), KEY);
});
afterAll(() => fake.close());
afterEach(async () => {
  await fake.settle();
  fake.book.reset();
});

const TASKS = '/api/v3/contents/generations/tasks';

const channel = (extra: Partial<VideoChannel> = {}): VideoChannel => ({
  name: 'ark-main',
  base_url: fake.baseUrl,
  api_key: KEY,
  model_map: {},
  timeout_seconds: 5,
  ...extra,
});
const seedance = (extra: Partial<VideoChannel> = {}) => new Seedance(channel(extra), { pollMs: 10 });

const textJob = (text = 'a cat dancing on a piano') =>
  jobOf('dance', { model: 'dance-1-0-pro-250528', content: [{ type: 'text', text }] });

describe('Seedance: requests', () => {
  it('sends the prompt with one set of commands, body fields winning over its flags', async () => {
    const job = jobOf('dance', {
      model: 'dance-1-0-pro-250528',
      content: [{ type: 'text', text: 'a cat dancing --rs 480p --dur 4 --seed 9 --wm true' }],
      resolution: '1080p',
      ratio: '21:9',
      seed: 123,
      camerafixed: true,
      callback_url: 'https://client.example/hook',
    });
    const video = await seedance().generate(job);
    const [created] = fake.to(TASKS);
    expect(created?.body).toEqual({
      model: 'seedance-1-0-pro-250528',
      content: [
        { type: 'text', text: 'a cat dancing --rs 1080p --rt 21:9 --dur 4 --seed 123 --cf true --wm true' },
      ],
      return_last_frame: false,
      service_tier: 'default',
      execution_expires_after: 172800,
      generate_audio: false,
    });
    expect(fake.settings.get(video.upstreamTaskId)).toEqual({
      resolution: '1080p',
      ratio: '21:9',
      duration: '4',
      seed: '123',
      camerafixed: 'true',
      watermark: 'true',
    });
    expect(job.progress).toEqual(['queued', 'running']);
    expect(video).toEqual({
      videoUrl: `${fake.baseUrl}${VIDEO_PATH}${video.upstreamTaskId}.mp4`,
      duration: 4,
      fps: 24,
      seed: 123,
      resolution: '1080p',
      ratio: '21:9',
      usage: { completion_tokens: 108900, total_tokens: 108900 },
      upstreamTaskId: video.upstreamTaskId,
    });
    expect(fake.to(`${TASKS}/`).map((r) => r.path)).toEqual(
      Array(3).fill(`${TASKS}/${video.upstreamTaskId}`),
    );
    await expectTestVideo(video.videoUrl);
  });

  it('sends first and last frames with their roles, frames as --frames, and returns the last frame', async () => {
    const job = jobOf('dance', {
      model: 'dance-1-0-lite-i2v-250428',
      content: [
        { type: 'image_url', image_url: { url: FIRST }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: LAST }, role: 'last_frame' },
      ],
      frames: 57,
      return_last_frame: true,
      service_tier: 'flex',
    });
    const video = await seedance({
      model_map: { 'dance-1-0-lite-i2v-250428': 'seedance-1-0-lite-i2v-250428' },
    }).generate(job);
    expect(fake.to(TASKS)[0]?.body).toEqual({
      model: 'seedance-1-0-lite-i2v-250428',
      content: [
        { type: 'text', text: '--rs 480p --rt 16:9 --frames 57' },
        { type: 'image_url', image_url: { url: FIRST }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: LAST }, role: 'last_frame' },
      ],
      return_last_frame: true,
      service_tier: 'flex',
      execution_expires_after: 172800,
      generate_audio: false,
    });
    expect(video.lastFrameUrl).toBe(`${fake.baseUrl}${VIDEO_PATH}${video.upstreamTaskId}-last.png`);
    expect(video.duration).toBe(2);
  });

  it('gives a lone image without a role the first_frame role our contract gives it', async () => {
    const job = jobOf('dance', {
      model: 'dance-1-5-pro-251215',
      content: [
        { type: 'text', text: 'waves' },
        { type: 'image_url', image_url: { url: FIRST } },
      ],
      generate_audio: true,
    });
    await seedance().generate(job);
    const body = fake.to(TASKS)[0]?.body as { content: unknown[]; generate_audio: boolean };
    expect(body.content[1]).toEqual({ type: 'image_url', image_url: { url: FIRST }, role: 'first_frame' });
    expect(body.generate_audio).toBe(true);
  });
});

describe('Seedance: failures', () => {
  it('reports a failed task as upstream_error with Ark’s error message', async () => {
    fake.book.failNextTask('The request failed because the output video may contain sensitive information.');
    const error = await failureOf(seedance().generate(textJob()));
    expect((error as ServiceError).code).toBe('upstream_error');
    expect(error.message).toContain('the output video may contain sensitive information');
  });

  it('passes Ark’s refusals on with their status and message', async () => {
    const unknown = await failureOf(
      seedance({ model_map: { 'dance-1-0-pro-250528': 'seedance-9' } }).generate(textJob()),
    );
    expect((unknown as UpstreamFailure).status).toBe(404);
    expect(unknown.message).toContain('The model or endpoint seedance-9 does not exist');
    const unauthorized = await failureOf(seedance({ api_key: 'wrong' }).generate(textJob()));
    expect((unauthorized as UpstreamFailure).channelFault).toBe(true);
    expect(unauthorized.message).toContain('The API key or AK/SK in the request is missing or invalid');
    for (const status of [429, 500]) {
      fake.failNext(status);
      const error = (await failureOf(seedance().generate(textJob()))) as UpstreamFailure;
      expect({ status: error.status, retryable: error.retryable }).toEqual({ status, retryable: true });
    }
  });

  it('polls again after a poll answered 429 or 500', async () => {
    const job = textJob();
    job.onProgress = (state) => state === 'queued' && fake.failNext(429, 500);
    const video = await seedance().generate(job);
    expect(video.videoUrl).toContain(VIDEO_PATH);
    expect(fake.to(`${TASKS}/`).length).toBe(5);
  });

  it('ends with timeout once the channel’s time has passed', async () => {
    fake.book.hold(true);
    const { error, ms } = await timedFailure(seedance({ timeout_seconds: 0.3 }).generate(textJob()));
    expect((error as ServiceError).code).toBe('timeout');
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1500);
  });

  it('stops at once when the job is aborted', async () => {
    fake.book.hold(true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const job = jobOf(
      'dance',
      { model: 'dance-1-0-pro-250528', content: [{ type: 'text', text: 'x' }] },
      controller.signal,
    );
    const { error, ms } = await timedFailure(seedance().generate(job));
    expect(error.message).toBe('the request was abandoned');
    expect(ms).toBeLessThan(500);
  });

  it('keeps the key out of messages, also when Ark repeats it', async () => {
    fake.failNext(401);
    const echoed = await failureOf(seedance().generate(textJob()));
    expect(echoed.message).toContain('Invalid key: Bearer ***');
    fake.book.failNextTask(`quota of key ${KEY} exhausted`);
    const failed = await failureOf(seedance().generate(textJob()));
    expect(failed.message).toContain('quota of key *** exhausted');
    for (const error of [echoed, failed]) expect(error.message).not.toContain(KEY);
  });
});
