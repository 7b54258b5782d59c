/**
 * The parts every video channel shares, without a vendor: the poll waits and their cap, the
 * follower's handling of what a poll finds (progress once per change, a success without a video,
 * an answer outside the contract, a poll the upstream refuses, a submission it refuses), key
 * blanking, and the HS256 signature of Kling's token checked against the JWT reference example.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.js';
import { UpstreamFailure } from '../../src/providers/router.js';
import { klingToken, signJwt } from '../../src/providers/video/channels/kling-auth.js';
import {
  followTask,
  MAX_POLL_MS,
  nextPollDelay,
  outsideContract,
  type TaskCheck,
} from '../../src/providers/video/channels/task-follower.js';
import { withoutSecrets } from '../../src/providers/secrets.js';
import type { VideoChannel } from '../../src/providers/video/channels/types.js';
import { failureOf, jobOf } from './support.js';

const KEY = 'k-0123456789abcdef';
const channel: VideoChannel = { name: 'unit', api_key: KEY, model_map: {}, timeout_seconds: 5 };
const job = () => jobOf('maxi', { model: 'maxi-t2v', action: 'generate', prompt: 'x' });

/** A vendor whose polls answer `checks` in turn, recording when each poll came. */
function scripted(checks: (() => TaskCheck)[]) {
  const at: number[] = [];
  let started = 0;
  return {
    at,
    started: () => started,
    task: {
      submit: async () => ((started = performance.now()), 'task-1'),
      check: async () => {
        at.push(performance.now());
        const next = checks[Math.min(at.length - 1, checks.length - 1)];
        return next!();
      },
    },
  };
}

const queued = (): TaskCheck => ({ state: 'queued' });
const running = (): TaskCheck => ({ state: 'running' });
const done = (): TaskCheck => ({ state: 'succeeded', video: { videoUrl: 'https://cdn.example/v.mp4' } });

describe('poll waits', () => {
  it('grow by half each poll up to the cap, and a first wait above the cap stays', () => {
    const waits = [200];
    while (waits.length < 12) waits.push(nextPollDelay(waits.at(-1)!, 200));
    expect(waits.slice(0, 4)).toEqual([200, 300, 450, 675]);
    expect(Math.max(...waits)).toBe(MAX_POLL_MS);
    expect(waits.at(-1)).toBe(MAX_POLL_MS);
    expect(nextPollDelay(30_000, 30_000)).toBe(30_000);
  });

  it('are kept between real polls', async () => {
    const vendor = scripted([queued, queued, queued, running, done]);
    await followTask(channel, job(), { pollMs: 40 }, vendor.task);
    const gaps = vendor.at.map((t, i) => t - (i === 0 ? vendor.started() : vendor.at[i - 1]!));
    const expected = [40, 60, 90, 135, 202.5];
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(expected[i]! - 2);
      expect(gap).toBeLessThan(expected[i]! + 150);
    });
  });
});

describe('the follower', () => {
  it('reports progress once per change and returns the video with the task id', async () => {
    const vendor = scripted([queued, queued, running, running, done]);
    const watched = job();
    const video = await followTask(channel, watched, { pollMs: 5 }, vendor.task);
    expect(watched.progress).toEqual(['queued', 'running']);
    expect(video).toEqual({ videoUrl: 'https://cdn.example/v.mp4', upstreamTaskId: 'task-1' });
  });

  it('takes a success without a video URL, or an answer outside the contract, as upstream_error', async () => {
    const empty = scripted([() => ({ state: 'succeeded', video: { videoUrl: '' } })]);
    const noUrl = (await failureOf(followTask(channel, job(), { pollMs: 5 }, empty.task))) as ServiceError;
    expect([noUrl.code, noUrl.options.internal]).toEqual([
      'upstream_error',
      'unit: task task-1 succeeded without a video URL',
    ]);
    const odd = scripted([
      () => {
        throw outsideContract(channel, 'the unknown status Melting');
      },
    ]);
    const outside = (await failureOf(followTask(channel, job(), { pollMs: 5 }, odd.task))) as ServiceError;
    expect([outside.code, outside.message]).toEqual([
      'upstream_error',
      'the upstream answered outside its contract',
    ]);
  });

  it('ends when a poll is refused (not a rate limit or a fault upstream), keeping the reason for the log', async () => {
    const vendor = scripted([
      () => {
        throw new UpstreamFailure(`404 task-1 is unknown to key ${KEY}`, 404);
      },
    ]);
    const error = (await failureOf(followTask(channel, job(), { pollMs: 5 }, vendor.task))) as ServiceError;
    expect(error.code).toBe('upstream_error');
    expect(error.message).toBe('the upstream stopped answering about its task');
    expect(error.options.internal).toBe('unit task task-1: 404 task-1 is unknown to key ***');
    expect(vendor.at.length).toBe(1);
  });

  it('lets a refused submission through as it was, its key parts blanked, for the router', async () => {
    const refusing = {
      submit: async () => {
        throw new UpstreamFailure('429 slow down, AK-part and SK-part', 429);
      },
      check: async () => done(),
    };
    const error = (await failureOf(
      followTask(channel, job(), { pollMs: 5 }, refusing, ['AK-part', 'SK-part']),
    )) as UpstreamFailure;
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect([error.status, error.message]).toEqual([429, '429 slow down, *** and ***']);
  });
});

describe('secrets', () => {
  it('blanks every secret, the whole before its parts, and anything shaped like a JWT', () => {
    const token = signJwt({ iss: 'AK' }, 'SK');
    const text = `key AK1:SK1 parts AK1 SK1 token ${token} end`;
    expect(withoutSecrets(text, ['AK1', 'SK1', 'AK1:SK1', ''])).toBe('key *** parts *** *** token *** end');
  });

  it('signs the JWT reference example to its published signature', () => {
    const token = signJwt({ sub: '1234567890', name: 'John Doe', iat: 1516239022 }, 'your-256-bit-secret');
    expect(token).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    );
  });

  it('makes Kling’s token from ACCESS:SECRET at a given time, and passes a ready token through', () => {
    const token = klingToken('AK:SK:with-colon', 1_700_000_000_500);
    const [header = '', claims = '', signature = ''] = token.split('.');
    expect(JSON.parse(Buffer.from(claims, 'base64url').toString())).toEqual({
      iss: 'AK',
      exp: 1_700_001_800,
      nbf: 1_699_999_995,
    });
    // The secret is all after the first colon.
    expect(signature).toBe(
      createHmac('sha256', 'SK:with-colon').update(`${header}.${claims}`).digest('base64url'),
    );
    expect(klingToken('ready-token')).toBe('ready-token');
  });
});
