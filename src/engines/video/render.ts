/**
 * A video from a spec: the scene (or the restyled reference) is painted frame by frame in
 * TypeScript, the camera moving over two layers, particles and dissolves on top, and the frames
 * streamed into ffmpeg. Composing in our own code rather than in ffmpeg filters keeps every
 * pixel under the seed's control and the camera's motion exact; ffmpeg only encodes and muxes.
 */
import { encodePng } from '../image-codec.js';
import { hashOf, seeded } from '../random.js';
import { relativeTo, layAnchor } from './anchor.js';
import { beatsOf, cameraPath } from './camera.js';
import { dominantColors } from './colors.js';
import { composite, dissolve } from './composite.js';
import { lastFrameOf } from './decode.js';
import { placeElements } from './elements.js';
import { encodeFrames } from './encode.js';
import { extentOf, layerFor } from './layer.js';
import { STANDING } from './layout.js';
import { beaconsFor, drawMovers, moversFor, thingMoversFor } from './movers.js';
import { drawSwarms, swarmsFor } from './particles.js';
import { featureOf, restyler } from './reference.js';
import { coverFrame } from './resample.js';
import { paintScene, planScene, type Borrowed } from './scene.js';
import { readThings } from './things.js';
import type { RenderedVideo, VideoSpec } from './types.js';
import { drawBadge } from './watermark.js';

/** Share of the clip over which an end image dissolves in. */
const DISSOLVE = 0.4;
/** Seconds over which particles appear over a start image. */
const FADE_IN = 0.5;

const smoothstep = (t: number) => {
  const x = Math.min(1, Math.max(0, t));
  return x * x * (3 - 2 * x);
};

function check(spec: VideoSpec): void {
  const even = (n: number) => Number.isInteger(n) && n > 0 && n % 2 === 0;
  if (!even(spec.width) || !even(spec.height))
    throw new RangeError('width and height must be positive even integers');
  if (!Number.isInteger(spec.frames) || spec.frames < 1)
    throw new RangeError('frames must be a positive integer');
  if (!(spec.fps > 0)) throw new RangeError('fps must be positive');
}

/**
 * Frame painter for a scene painted from the prompt, with the camera, images, moving subjects
 * and particles: frame `index` into `frame` (RGBA words, width × height).
 */
export function sceneFrames(spec: VideoSpec): (index: number, frame: Int32Array) => void {
  const { width, height, fps, frames } = spec;
  const random = seeded(hashOf('camera', spec.seed));
  const anchor = spec.startImage ?? spec.continueFrom;
  const feature = spec.reference?.use === 'feature' ? featureOf(spec.reference) : undefined;
  const borrowed: Borrowed | undefined = feature
    ? { colors: feature.colors, amount: 0.7 }
    : anchor
      ? { colors: dominantColors([anchor]), amount: 0.5 }
      : undefined;
  const plan = planScene(spec, { width, height }, borrowed);
  const borrowsMotion = !spec.camera && feature !== undefined;
  const beats = borrowsMotion ? [feature.beat] : beatsOf(spec.camera, random);
  const path = cameraPath(beats, frames, fps, borrowsMotion ? 1 : plan.speed, random);
  const near = layerFor(path.near, width, height, 1, 0.1 * height);
  const far = layerFor(path.far, width, height, 0.5, 0.1 * height);
  paintScene(plan, near, far);
  if (anchor) layAnchor(near, coverFrame(anchor, width, height), width, height, 0.3 * height);
  placeElements(near, spec.elements ?? [], width, height);
  const moving = plan.subjects.filter((p) => !STANDING.includes(p.subject));
  const movers = [
    ...moversFor(moving, plan.stage, extentOf(near)),
    ...thingMoversFor(plan.things, plan.stage, extentOf(near)),
    ...beaconsFor(plan.subjects, plan.stage),
  ];
  const swarms = swarmsFor(plan.weather, plan.forms, plan.stage, extentOf(near), plan.speed);
  const fromEnd = spec.endImage ? relativeTo(path.near, width, height) : [];
  const dissolveFrom = Math.floor((frames - 1) * (1 - DISSOLVE));
  const ending = spec.endImage ? layerFor(fromEnd.slice(dissolveFrom), width, height, 1, 4) : undefined;
  if (ending && spec.endImage)
    layAnchor(ending, coverFrame(spec.endImage, width, height), width, height, Infinity);
  return (i, frame) => {
    composite(frame, width, height, near, path.near[i]!, far, path.far[i]!);
    const ended = ending && frames > 1 ? smoothstep((i - dissolveFrom) / (frames - 1 - dissolveFrom)) : 0;
    const opacity = (anchor ? smoothstep(i / (FADE_IN * fps)) : 1) * (1 - ended);
    drawMovers(frame, width, height, movers, i / fps, path.near[i]!, opacity);
    drawSwarms(frame, width, height, swarms, i / fps, path.near[i]!, opacity);
    if (ending && ended > 0) dissolve(frame, width, height, ending, fromEnd[i]!, ended);
  };
}

/** `onFrame` hears of each frame painted (the encoder takes them as they come), for progress. */
export async function renderVideo(
  spec: VideoSpec,
  signal?: AbortSignal,
  onFrame?: (painted: number, frames: number) => void,
): Promise<RenderedVideo> {
  check(spec);
  const { width, height, fps, frames } = spec;
  const reference = spec.reference;
  const paint =
    reference?.use === 'base' && reference.frames.length > 0
      ? restyler(reference, planScene(spec, { width, height }).palette, width, height, fps)
      : sceneFrames(spec);
  const mp4 = await encodeFrames(
    { width, height, fps, frames, quality: spec.quality, audio: spec.audio },
    (i, frame) => {
      paint(i, frame);
      if (spec.watermark) drawBadge(frame, width, height);
      onFrame?.(i + 1, frames);
    },
    signal,
  );
  const last = await lastFrameOf(mp4, frames, fps, width, height, signal);
  const nouns = reference?.use === 'base' ? undefined : readThings(spec.prompt, spec.negativePrompt).report;
  return {
    mp4,
    lastFrame: encodePng(last),
    width,
    height,
    fps,
    frames,
    duration: frames / fps,
    unknownNouns: nouns?.unknown ?? [],
    standIns: nouns?.standIns ?? [],
  };
}
