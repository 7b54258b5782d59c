/**
 * The Kling channel against a fake Kling that checks what its documentation requires: our clip
 * fields in Kling's names on the right endpoint, a JWT signed from ACCESS:SECRET (or a ready
 * token), polls to the video, and failures classified and stripped of every key part.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.js';
import { UpstreamFailure } from '../../src/providers/router.js';
import { Kling } from '../../src/providers/video/channels/kling.js';
import type { VideoChannel } from '../../src/providers/video/channels/types.js';
import { startFakeKling, type FakeKling } from './fakes/kling.js';
import { tinyMp4 } from './fakes/mp4.js';
import { VIDEO_PATH } from './fakes/server.js';
import { expectTestVideo, failureOf, jobOf, timedFailure } from './support.js';

const ACCESS = 'AKk1ing0123456789access';
const SECRET = 'SKk1ing-secret-9876543210';
const PRE_MADE = 'kling-ready-made-token-0042';
const START = 'https://img.example/start.png';
const END = 'https://img.example/end.png';

let fake: FakeKling;

beforeAll(async () => {
  fake = await startFakeKling(await tinyMp4(), { access: ACCESS, secret: SECRET, preMade: PRE_MADE });
});
afterAll(() => fake.close());
afterEach(async () => {
  await fake.settle();
  fake.book.reset();
});

const channel = (extra: Partial<VideoChannel> = {}): VideoChannel => ({
  name: 'kling-main',
  base_url: fake.baseUrl,
  api_key: `${ACCESS}:${SECRET}`,
  model_map: {},
  timeout_seconds: 5,
  ...extra,
});
const kling = (extra: Partial<VideoChannel> = {}) => new Kling(channel(extra), { pollMs: 10 });

const decoded = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

describe('Kling: requests', () => {
  it('sends text2video in Kling’s names and polls the task to its video', async () => {
    const job = jobOf('clip', {
      action: 'text2video',
      prompt: 'a red fox in snow',
      negative_prompt: 'blur',
      cfg_scale: '0.7',
      mode: 'pro',
      duration: 10,
      aspect_ratio: '9:16',
      camera_control: '{"type":"simple","config":{"zoom":0.5}}',
      callback_url: 'https://client.example/hook',
    });
    const video = await kling().generate(job);

    const [created] = fake.to('/v1/videos/text2video');
    expect(created?.body).toEqual({
      model_name: 'kling-v1',
      prompt: 'a red fox in snow',
      negative_prompt: 'blur',
      cfg_scale: 0.7,
      mode: 'pro',
      duration: '10',
      aspect_ratio: '9:16',
      camera_control: { type: 'simple', config: { zoom: 0.5 } },
    });
    const id = video.upstreamTaskId;
    expect(fake.to('/v1/videos/text2video/').map((r) => [r.method, r.path])).toEqual(
      Array(3).fill(['GET', `/v1/videos/text2video/${id}`]),
    );
    expect(job.progress).toEqual(['queued', 'running']);
    expect(video).toEqual({
      videoUrl: `${fake.baseUrl}${VIDEO_PATH}${id}.mp4`,
      duration: 10.042,
      upstreamTaskId: id,
      upstreamVideoId: `${id}-video`,
    });
    await expectTestVideo(video.videoUrl);
  });

  it('sends image2video with both frames and the model the channel maps to, without aspect_ratio', async () => {
    const job = jobOf('clip', {
      action: 'image2video',
      model: 'clip-v2-1-master',
      prompt: 'the girl smiles',
      start_image_url: START,
      end_image_url: END,
      duration: 5,
    });
    await kling({ model_map: { 'clip-v2-1-master': 'kling-v2-6' } }).generate(job);
    expect(fake.to('/v1/videos/image2video')[0]?.body).toEqual({
      model_name: 'kling-v2-6',
      prompt: 'the girl smiles',
      image: START,
      image_tail: END,
      mode: 'std',
      duration: '5',
    });
  });

  it('extends an earlier video by Kling’s id of it', async () => {
    const first = await kling().generate(jobOf('clip', { action: 'text2video', prompt: 'a lighthouse' }));
    const job = jobOf('clip', { action: 'extend', video_id: first.upstreamVideoId, prompt: 'waves rise' });
    const extended = await kling().generate(job);
    expect(fake.to('/v1/videos/video-extend')[0]?.body).toEqual({
      video_id: first.upstreamVideoId,
      prompt: 'waves rise',
    });
    expect(fake.to('/v1/videos/video-extend/').length).toBe(3);
    expect(extended.videoUrl).toBe(`${fake.baseUrl}${VIDEO_PATH}${extended.upstreamTaskId}.mp4`);
  });

  it('sends the omni model to omni-video, with the frames in image_list and the references as given', async () => {
    const job = jobOf('clip', {
      action: 'image2video',
      model: 'clip-video-o1',
      prompt: 'the hero walks in',
      start_image_url: START,
      element_list: [{ element_id: 'el-1' }],
      video_list: [{ video_url: 'https://img.example/ref.mp4', refer_type: 'feature' }],
    });
    await kling().generate(job);
    expect(fake.to('/v1/videos/omni-video')[0]?.body).toEqual({
      model_name: 'kling-video-o1',
      prompt: 'the hero walks in',
      mode: 'std',
      image_list: [{ image_url: START, type: 'first_frame' }],
      element_list: [{ element_id: 'el-1' }],
      video_list: [{ video_url: 'https://img.example/ref.mp4', refer_type: 'feature' }],
    });
    expect(fake.to('/v1/videos/omni-video/').length).toBe(3);
  });

  it('refuses references that only the omni model takes, without calling Kling', async () => {
    const job = jobOf('clip', { action: 'text2video', prompt: 'x', element_list: [{ element_id: 'el-1' }] });
    const error = await failureOf(kling().generate(job));
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).status).toBe(400);
    expect(error.message).toContain('element_list');
    expect(fake.received).toEqual([]);
  });
});

describe('Kling: authentication', () => {
  it('signs a fresh HS256 token per call from ACCESS:SECRET', async () => {
    await kling().generate(jobOf('clip', { action: 'text2video', prompt: 'a kite' }));
    const tokens = fake.received.map((r) => r.authorization?.replace(/^Bearer /, '') ?? '');
    expect(tokens.length).toBe(4);
    for (const token of tokens) {
      const [header = '', claims = ''] = token.split('.');
      expect(decoded(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
      const { iss, exp, nbf } = decoded(claims) as { iss: string; exp: number; nbf: number };
      expect(iss).toBe(ACCESS);
      expect(exp - nbf).toBe(1805);
      expect(Math.abs(nbf + 5 - Date.now() / 1000)).toBeLessThan(5);
    }
  });

  it('uses a key without a colon as a ready token', async () => {
    const video = await kling({ api_key: PRE_MADE }).generate(
      jobOf('clip', { action: 'text2video', prompt: 'a kite' }),
    );
    expect(video.videoUrl).toContain(VIDEO_PATH);
    expect(fake.received.every((r) => r.authorization === `Bearer ${PRE_MADE}`)).toBe(true);
  });

  it('reports a token signed with the wrong secret as Kling’s 401, a fault of the channel', async () => {
    const error = await failureOf(
      kling({ api_key: `${ACCESS}:not-the-secret` }).generate(
        jobOf('clip', { action: 'text2video', prompt: 'x' }),
      ),
    );
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).channelFault).toBe(true);
    expect(error.message).toContain('Authorization is invalid');
    expect(error.message).not.toContain('not-the-secret');
  });
});

describe('Kling: failures', () => {
  it('reports a failed task as upstream_error with Kling’s message', async () => {
    fake.book.failNextTask('Failure to pass the risk control system');
    const error = await failureOf(kling().generate(jobOf('clip', { action: 'text2video', prompt: 'x' })));
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('upstream_error');
    expect(error.message).toContain('Failure to pass the risk control system');
  });

  it('passes a refused submission on with its status: 400 as the client’s, 429 and 500 worth a retry', async () => {
    const unknownModel = kling({ model_map: { 'clip-v1': 'kling-v9' } });
    const refused = await failureOf(
      unknownModel.generate(jobOf('clip', { action: 'text2video', prompt: 'x' })),
    );
    expect(refused).toBeInstanceOf(UpstreamFailure);
    expect((refused as UpstreamFailure).status).toBe(400);
    expect(refused.message).toContain('model_name kling-v9 is not supported');
    for (const status of [429, 500]) {
      fake.failNext(status);
      const error = await failureOf(kling().generate(jobOf('clip', { action: 'text2video', prompt: 'x' })));
      expect({
        status: (error as UpstreamFailure).status,
        retryable: (error as UpstreamFailure).retryable,
      }).toEqual({ status, retryable: true });
    }
  });

  it('polls again after a poll answered 500 or 429', async () => {
    fake.book.pace(2, 1);
    const job = jobOf('clip', { action: 'text2video', prompt: 'x' });
    job.onProgress = (state) => state === 'queued' && fake.failNext(500, 429);
    const video = await kling().generate(job);
    expect(video.videoUrl).toContain(VIDEO_PATH);
    expect(fake.to('/v1/videos/text2video/').length).toBe(6);
  });

  it('ends with timeout once the channel’s time has passed', async () => {
    fake.book.hold(true);
    const { error, ms } = await timedFailure(
      kling({ timeout_seconds: 0.3 }).generate(jobOf('clip', { action: 'text2video', prompt: 'x' })),
    );
    expect((error as ServiceError).code).toBe('timeout');
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1500);
  });

  it('stops polling at once when the job is aborted', async () => {
    fake.book.hold(true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const job = jobOf('clip', { action: 'text2video', prompt: 'x' }, controller.signal);
    const { error, ms } = await timedFailure(kling().generate(job));
    expect((error as ServiceError).code).toBe('upstream_error');
    // The message says the abort ended it, not a deadline; the bound only catches an abort
    // noticed seconds late, with room for a loaded machine (polls are 10 ms apart here).
    expect(error.message).toBe('the request was abandoned');
    expect(ms).toBeLessThan(2000);
    // A poll already on the wire when the abort came may still reach the fake a moment later;
    // after that, 150 ms (fifteen poll intervals) must bring no new poll.
    await new Promise((r) => setTimeout(r, 50));
    const polls = fake.received.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(fake.received.length).toBe(polls);
  });

  it('keeps the access key, the secret and the signed token out of every message', async () => {
    fake.failNext(401);
    const echoed = await failureOf(kling().generate(jobOf('clip', { action: 'text2video', prompt: 'x' })));
    expect(echoed.message).toContain('Authorization is invalid');
    fake.book.failNextTask(`the task of ${ACCESS} was refused`);
    const failed = await failureOf(kling().generate(jobOf('clip', { action: 'text2video', prompt: 'x' })));
    expect(failed.message).toContain('was refused');
    for (const error of [echoed, failed]) {
      for (const secret of [ACCESS, SECRET, 'eyJ']) expect(error.message).not.toContain(secret);
    }
  });
});
