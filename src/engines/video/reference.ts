/**
 * A reference video, used one of two ways. As a base it is the video: its frames, timed to the
 * output's frame rate (played back and forth if too short), scaled to cover the frame and
 * recoloured through the prompt's palette. As a feature only its dominant colours and its mean
 * camera motion are borrowed, to steer a scene painted from the prompt.
 */
import type { Canvas } from '../canvas.js';
import type { Beat } from './camera.js';
import { dominantColors, gradientMap, recolor } from './colors.js';
import { estimateMotion } from './motion-estimate.js';
import { coverFrame } from './resample.js';
import type { Palette, Rgb } from '../paint/index.js';
import type { ReferenceVideo } from './types.js';

/** Index into `count` frames for step k, bouncing at both ends: 0 1 2 1 0 1 … */
function bounce(k: number, count: number): number {
  if (count <= 1) return 0;
  const period = 2 * (count - 1);
  const m = k % period;
  return m < count ? m : period - m;
}

/** Frame painter for a restyled base video: output frame i from the reference at the same time. */
export function restyler(
  reference: ReferenceVideo,
  palette: Palette,
  width: number,
  height: number,
  fps: number,
): (index: number, frame: Int32Array) => void {
  const map = gradientMap(palette);
  let cached = -1;
  let pixels: Int32Array = new Int32Array(0);
  return (index, frame) => {
    const k = bounce(Math.floor((index / fps) * reference.fps + 1e-6), reference.frames.length);
    if (k !== cached) {
      pixels = coverFrame(reference.frames[k]!, width, height);
      recolor(pixels, map, 0.25);
      cached = k;
    }
    frame.set(pixels);
  };
}

export interface Feature {
  colors: Rgb[];
  /** The reference's mean camera motion, as a steady beat. */
  beat: Beat;
}

/** Colours from up to eight frames across the video; motion from up to twelve frame pairs. */
export function featureOf(reference: ReferenceVideo): Feature {
  const frames = reference.frames;
  const spaced = (count: number): Canvas[] =>
    Array.from(
      { length: Math.min(count, frames.length) },
      (_, i) => frames[Math.floor((i * frames.length) / Math.min(count, frames.length))]!,
    );
  const colors = dominantColors(spaced(8));
  const pairs = Math.min(12, frames.length - 1);
  let panX = 0;
  let panY = 0;
  let zoom = 0;
  let roll = 0;
  for (let p = 0; p < pairs; p += 1) {
    const i = Math.floor((p * (frames.length - 1)) / pairs);
    const m = estimateMotion(frames[i]!, frames[i + 1]!);
    // Content moving left means the camera turned right; per second, averaged over the pairs.
    panX -= (m.dx * reference.fps) / pairs;
    panY -= (m.dy * reference.fps) / pairs;
    zoom += (Math.log(m.scale) * reference.fps) / pairs;
    roll -= (m.rotation * reference.fps) / pairs;
  }
  return { colors, beat: { velocity: { panX, panY, zoom, roll } } };
}
