/**
 * The video engine's steps as a worker thread runs them: rendering, the cover (first frame) of a
 * rendered video, an extension joined to what it continues, a client's reference video read
 * and checked against the spec's limits, and a client's image read (a PNG or JPEG decoder in
 * JavaScript takes a tenth of a second for 720p, seconds for a camera's photo).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Canvas } from '../canvas.js';
import { decodeImage, encodePng } from '../image-codec.js';
import { callSignal, reportProgress } from '../worker-methods.js';
import { decodeFrames } from './decode.js';
import { renderVideo as render } from './render.js';
import { run, VideoToolError, withTemp } from './tools.js';
import type { ReferenceVideo, RenderedVideo, VideoSpec } from './types.js';

/** A render, telling its caller how many of its frames are painted and encoded; it stops if the caller gives up. */
export function renderVideo(spec: VideoSpec): Promise<RenderedVideo> {
  return render(spec, callSignal(), (painted, frames) => reportProgress(painted / frames, 'render'));
}

/** A PNG or JPEG of at most `maxPixels`, as a canvas; `UnreadableImage` says what is wrong with it. */
export function readImage(bytes: Uint8Array, maxPixels: number): Canvas {
  return decodeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), maxPixels);
}

/** The first frame as a PNG: the cover of a clip or maxi item. */
export async function firstFrame(mp4: Uint8Array): Promise<Uint8Array> {
  const { frames } = await decodeFrames(Buffer.from(mp4), 1);
  const [frame] = frames;
  if (!frame) throw new VideoToolError('has no frame');
  return new Uint8Array(encodePng(frame));
}

/**
 * An extension joined after the video it continues: one longer MP4, the streams copied, so
 * nothing is encoded twice (both were rendered with the same size, rate and encoder settings).
 */
export async function joinVideos(first: Uint8Array, then: Uint8Array): Promise<Uint8Array> {
  return withTemp(async (dir) => {
    const a = join(dir, 'a.mp4');
    const b = join(dir, 'b.mp4');
    const list = join(dir, 'list.txt');
    const out = join(dir, 'joined.mp4');
    await Promise.all([
      writeFile(a, first),
      writeFile(b, then),
      writeFile(list, `file '${a}'\nfile '${b}'\n`),
    ]);
    await run('ffmpeg', [
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '-fflags',
      '+bitexact',
      '-map_metadata',
      '-1',
      out,
    ]);
    return new Uint8Array(await readFile(out));
  });
}

/** The spec's limits of a `video_list` video: 3 to 10 s, 720 to 2160 px, 24 to 60 fps. */
const LIMITS = { seconds: [3, 10], pixels: [720, 2160], fps: [24, 60] } as const;
/** References are read at this width: enough to restyle or to learn colours and motion from. */
const REFERENCE_WIDTH = 640;

function problemOf(duration: number, width: number, height: number, fps: number): string | undefined {
  if (duration < LIMITS.seconds[0] - 0.05 || duration > LIMITS.seconds[1] + 0.05)
    return `must last 3 to 10 s (lasts ${duration.toFixed(2)} s)`;
  if (Math.min(width, height) < LIMITS.pixels[0] || Math.max(width, height) > LIMITS.pixels[1]) {
    return `must be 720 to 2160 px (is ${width}×${height})`;
  }
  if (fps < LIMITS.fps[0] - 0.5 || fps > LIMITS.fps[1] + 0.5)
    return `must be 24 to 60 fps (is ${fps.toFixed(2)})`;
  return undefined;
}

async function soundOf(video: Buffer): Promise<Uint8Array | undefined> {
  return withTemp(async (dir) => {
    const path = join(dir, 'reference');
    await writeFile(path, video);
    try {
      const wav = await run('ffmpeg', ['-i', path, '-vn', '-ac', '2', '-ar', '44100', '-f', 'wav', 'pipe:1']);
      return wav.length > 44 ? new Uint8Array(wav) : undefined;
    } catch {
      // A video without sound: nothing to keep.
      return undefined;
    }
  });
}

export async function referenceOf(
  bytes: Uint8Array,
  use: 'base' | 'feature',
  frames: number,
): Promise<{ video: ReferenceVideo; sound?: Uint8Array } | { problem: string }> {
  const video = Buffer.from(bytes);
  let decoded;
  try {
    const full = await decodeFrames(video, 1);
    const problem = problemOf(full.duration, full.width, full.height, full.fps);
    if (problem) return { problem };
    decoded = await decodeFrames(video, frames, REFERENCE_WIDTH);
  } catch (error) {
    if (error instanceof VideoToolError)
      return { problem: `is not a video ffmpeg can read (${error.message})` };
    throw error;
  }
  const sound = await soundOf(video);
  return { video: { frames: decoded.frames, fps: decoded.fps, use }, ...(sound ? { sound } : {}) };
}
