/**
 * What the video channel tests share: jobs built from request bodies validated by our contract
 * (so that the channels see exactly what the service hands them), the failure a promise ends in,
 * and a check that a returned URL serves the test video.
 */
import { expect } from 'vitest';
import { operationAt } from '../../src/contract/table.js';
import { validateRequest } from '../../src/contract/validate.js';
import type { VideoFamily, VideoJob } from '../../src/providers/video/channels/types.js';
import { download, probe } from '../support/media-probe.js';

export const never = new AbortController().signal;

/** A job for `body` after our validation (defaults filled), recording the progress it is told. */
export function jobOf(
  family: VideoFamily,
  body: Record<string, unknown>,
  signal = never,
): VideoJob & { progress: string[] } {
  const { violations, body: valid } = validateRequest(
    operationAt(`/${family}/videos`)!,
    structuredClone(body),
  );
  expect(violations).toEqual([]);
  const progress: string[] = [];
  return { family, body: valid, signal, progress, onProgress: (state) => progress.push(state) };
}

/** What `promise` was rejected with; fails the test when it resolved. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(Error);
  return outcome.error as Error;
}

/** The failure of `promise` and how long it took to come. */
export async function timedFailure(promise: Promise<unknown>): Promise<{ error: Error; ms: number }> {
  const started = performance.now();
  const error = await failureOf(promise);
  return { error, ms: performance.now() - started };
}

/** `url` serves the one-second 320×240 H.264 test video. */
export async function expectTestVideo(url: string): Promise<void> {
  const probed = await probe(await download(url));
  const stream = probed.streams.find((s) => s.codec_type === 'video');
  expect(probed.format.format_name).toContain('mp4');
  expect({ codec: stream?.codec_name, width: stream?.width, height: stream?.height }).toEqual({
    codec: 'h264',
    width: 320,
    height: 240,
  });
  expect(Number(probed.format.duration)).toBeCloseTo(1, 1);
}
