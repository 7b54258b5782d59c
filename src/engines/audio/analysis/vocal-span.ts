/**
 * Where a separated vocal is sung: the first and last moments of sustained vocal energy. Callers
 * use it to trim or align lyrics, so it must ignore what separation leaves behind in an
 * instrumental passage: short leaks of drum hits (removed by a median over 0.3 s)
 * and a low bed of leaked chords (below the threshold, which is relative both to the vocal's
 * own loud parts and to the loudness of the mix it came from).
 */
import { type Pcm, mono } from '../dsp/pcm.js';

export interface VocalSpan {
  /** Seconds. */
  start: number;
  end: number;
}

export interface VocalSpanOptions {
  /**
   * The mix the vocal was separated from. Without it a loudly mastered mix is assumed (loud
   * parts at -6 dBFS), which misses vocals quieter than about -24 dBFS in a quiet recording.
   */
  mixture?: Pcm;
}

const FRAME_SECONDS = 0.05;
/** Median over 11 half-overlapping frames, 0.3 s: a drum leak is gone, a syllable's edges stay put. */
const SMOOTHING_FRAMES = 11;
/** Active within this much of the vocal's loud frames... */
const BELOW_VOCAL_DB = 20;
/** ...and within this much of the mix's: a vocal sits a few dB under the mix, leakage 20 dB and more. */
const BELOW_MIX_DB = 18;
const ASSUMED_MIX_DB = -6;
/** Pauses between syllables and words up to this long are still singing. */
const BRIDGED_GAP_SECONDS = 0.3;
/** Shorter stretches of activity are not taken for singing. */
const SHORTEST_SECONDS = 0.3;
/** Loud frames are the 95th percentile, not the maximum, so that one blip does not set the scale. */
const LOUD_PERCENTILE = 0.95;

/** Energy of half-overlapping frames in dB, median-smoothed. */
function envelope(samples: Float32Array, frame: number): Float64Array {
  const hop = frame >> 1;
  const count = samples.length < frame ? 0 : Math.floor((samples.length - frame) / hop) + 1;
  const levels = new Float64Array(count);
  for (let t = 0; t < count; t += 1) {
    let sum = 0;
    for (let i = t * hop; i < t * hop + frame; i += 1) sum += samples[i]! * samples[i]!;
    levels[t] = 10 * Math.log10(sum / frame + 1e-12);
  }
  const half = SMOOTHING_FRAMES >> 1;
  const smoothed = new Float64Array(count);
  const window = new Float64Array(SMOOTHING_FRAMES);
  for (let t = 0; t < count; t += 1) {
    const from = Math.max(0, t - half);
    const to = Math.min(count, t + half + 1);
    const values = window.subarray(0, to - from);
    values.set(levels.subarray(from, to));
    values.sort();
    smoothed[t] = values[values.length >> 1]!;
  }
  return smoothed;
}

function loudest(levels: Float64Array): number {
  if (levels.length === 0) return -Infinity;
  const sorted = levels.slice().sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(LOUD_PERCENTILE * sorted.length))]!;
}

/** Where `vocals` is sung, in seconds, or null when nothing in it holds long enough to be singing. */
export function vocalSpan(vocals: Pcm, options: VocalSpanOptions = {}): VocalSpan | null {
  const frame = Math.round(FRAME_SECONDS * vocals.rate);
  const hop = frame >> 1;
  const levels = envelope(mono(vocals), frame);
  const mixLevel = options.mixture ? loudest(envelope(mono(options.mixture), frame)) : ASSUMED_MIX_DB;
  const threshold = Math.max(loudest(levels) - BELOW_VOCAL_DB, mixLevel - BELOW_MIX_DB);
  const bridged = Math.round((BRIDGED_GAP_SECONDS * vocals.rate) / hop);
  const shortest = Math.round((SHORTEST_SECONDS * vocals.rate) / hop);
  let first = -1;
  let last = -1;
  let runStart = -1;
  let runEnd = -1;
  const close = () => {
    if (runStart >= 0 && runEnd - runStart + 1 >= shortest) {
      if (first < 0) first = runStart;
      last = runEnd;
    }
  };
  for (let t = 0; t < levels.length; t += 1) {
    if (levels[t]! < threshold) continue;
    if (runStart >= 0 && t - runEnd - 1 <= bridged) {
      runEnd = t;
      continue;
    }
    close();
    runStart = t;
    runEnd = t;
  }
  close();
  if (first < 0) return null;
  // Frame t spans [t·hop, t·hop + frame): the span runs from the first active frame's middle
  // minus half a hop to the last one's middle plus half a hop.
  const centre = (t: number) => (t * hop + frame / 2) / vocals.rate;
  return {
    start: Math.max(0, centre(first) - hop / 2 / vocals.rate),
    end: centre(last) + hop / 2 / vocals.rate,
  };
}
