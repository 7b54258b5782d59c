/**
 * Time-stretching and pitch-shifting, to bring two songs to one tempo and one key for a mashup.
 * Stretching is WSOLA: overlapping grains of the input are laid out at the output's pace, each
 * grain taken where it best continues the one before, so waveforms join in phase; that keeps
 * pitch and drum attacks intact. All channels share the grains, so the stereo image holds.
 */
import { hann } from '../../signal/index.js';
import { frames, mono, type Pcm } from './pcm.js';

/** Grains of about 46 ms: longer than a bass period, shorter than a drum hit's echo would be. */
const GRAIN_SECONDS = 0.046;
/** How far from its nominal place a grain may be taken, in each direction: half a 43 Hz period. */
const TOLERANCE_SECONDS = 0.0115;
/** The search first runs on a guide this many times shorter, then refines at full rate. */
const COARSE = 4;

/** Sums of squares of `values` from the start: the energy of any span in two reads. */
function cumulativeEnergy(values: Float32Array): Float64Array {
  const sums = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i += 1) sums[i + 1] = sums[i]! + values[i]! * values[i]!;
  return sums;
}

/**
 * Among the spans of `length` starting at `first`..`last` in `guide`, the start that best
 * continues the template (the span at `template`): the highest correlation divided by the
 * candidate's energy, so a loud passage nearby does not win only for being loud.
 */
function bestStart(
  guide: Float32Array,
  energy: Float64Array,
  template: number,
  length: number,
  first: number,
  last: number,
): number {
  let best = first;
  let bestScore = -Infinity;
  for (let start = first; start <= last; start += 1) {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += guide[template + i]! * guide[start + i]!;
    const score = sum / Math.sqrt(energy[start + length]! - energy[start]! + 1e-12);
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  return best;
}

/**
 * `pcm` made `ratio` times as long (ratio 1.25: a quarter slower) at the same pitch, lasting
 * exactly round(frames * ratio) samples. The grains are chosen to suit `guide` (by default `pcm`
 * itself): stems stretched with their mix as the guide share its grains, so they stay in time
 * with each other and still sum to the stretched mix.
 */
export function timeStretch(pcm: Pcm, ratio: number, guide: Pcm = pcm): Pcm {
  if (!(ratio > 0) || !Number.isFinite(ratio)) throw new RangeError(`stretch ratio ${ratio} is not positive`);
  const inLength = frames(pcm);
  const outLength = Math.round(inLength * ratio);
  const channels = pcm.channels.map(() => new Float32Array(outLength));
  if (outLength === 0) return { rate: pcm.rate, channels };
  const hop = COARSE * Math.round((GRAIN_SECONDS / 2 / COARSE) * pcm.rate);
  const size = 2 * hop;
  const tolerance = COARSE * Math.round((TOLERANCE_SECONDS * pcm.rate) / COARSE);
  const analysisHop = inLength === 0 ? hop : (hop * inLength) / outLength;
  // Room on both sides, so that every grain and every candidate reads inside the arrays.
  const margin = size + tolerance + hop + COARSE;
  const pad = (channel: Float32Array) => {
    const padded = new Float32Array(inLength + 2 * margin);
    padded.set(channel, margin);
    return padded;
  };
  const sources = pcm.channels.map(pad);
  const follow = pad(mono(guide).subarray(0, inLength));
  const coarse = new Float32Array(Math.floor(follow.length / COARSE));
  for (let i = 0; i < coarse.length; i += 1) {
    for (let j = 0; j < COARSE; j += 1) coarse[i]! += follow[i * COARSE + j]!;
  }
  const followEnergy = cumulativeEnergy(follow);
  const coarseEnergy = cumulativeEnergy(coarse);
  const window = hann(size);
  const grains = Math.floor(outLength / hop) + 2;
  // Grain k is centred on output sample k * hop; `centre` is where it is read from in the input.
  let previous = margin;
  for (let k = 0; k < grains; k += 1) {
    const nominal = margin + Math.round(k * analysisHop);
    let centre = nominal;
    // The first half of this grain overlaps the previous one, so it should read like the input
    // that followed the previous grain's centre: that span is the template.
    if (k > 0 && followEnergy[previous + hop]! - followEnergy[previous]! > 0) {
      const base = Math.round((nominal - hop) / COARSE);
      const reach = tolerance / COARSE;
      const template = Math.round(previous / COARSE);
      const rough =
        COARSE * bestStart(coarse, coarseEnergy, template, hop / COARSE, base - reach, base + reach);
      const first = Math.max(nominal - hop - tolerance, rough - COARSE);
      const last = Math.min(nominal - hop + tolerance, rough + COARSE);
      centre = bestStart(follow, followEnergy, previous, hop, first, Math.max(first, last)) + hop;
    }
    const outStart = k * hop - hop;
    const from = Math.max(0, -outStart);
    const to = Math.min(size, outLength - outStart);
    sources.forEach((source, c) => {
      const out = channels[c]!;
      const read = centre - hop;
      for (let j = from; j < to; j += 1) out[outStart + j]! += window[j]! * source[read + j]!;
    });
    previous = centre;
  }
  return { rate: pcm.rate, channels };
}

/** Zero crossings of the resampling kernel on each side, and table points between crossings. */
const KERNEL_ZEROS = 10;
const KERNEL_RESOLUTION = 512;

/** A Blackman-windowed sinc from 0 to KERNEL_ZEROS crossings, tabulated once. */
const kernel = Float64Array.from({ length: KERNEL_ZEROS * KERNEL_RESOLUTION + 2 }, (_, i) => {
  const t = i / KERNEL_RESOLUTION;
  if (t === 0) return 1;
  if (t >= KERNEL_ZEROS) return 0;
  const phase = Math.PI * (1 + t / KERNEL_ZEROS);
  const window = 0.42 - 0.5 * Math.cos(phase) + 0.08 * Math.cos(2 * phase);
  return (Math.sin(Math.PI * t) / (Math.PI * t)) * window;
});

/**
 * `samples` read `step` samples per output sample (above 1: faster and higher), `length` samples
 * long, by band-limited interpolation: when reading faster, the kernel widens to cut what would
 * otherwise fold back under the new Nyquist frequency.
 */
export function resampled(samples: Float32Array, step: number, length: number): Float32Array {
  const out = new Float32Array(length);
  // Under the Nyquist frequency by the kernel's transition band, so little folds back.
  const cutoff = Math.min(1, 1 / step) * 0.9;
  const reach = KERNEL_ZEROS / cutoff;
  for (let j = 0; j < length; j += 1) {
    const position = j * step;
    const first = Math.max(0, Math.ceil(position - reach));
    const last = Math.min(samples.length - 1, Math.floor(position + reach));
    let sum = 0;
    let weights = 0;
    for (let i = first; i <= last; i += 1) {
      const t = Math.abs(position - i) * cutoff * KERNEL_RESOLUTION;
      const index = Math.floor(t);
      const weight = kernel[index]! + (kernel[index + 1]! - kernel[index]!) * (t - index);
      sum += weight * samples[i]!;
      weights += weight;
    }
    out[j] = weights > 0 ? sum / weights : 0;
  }
  return out;
}

/**
 * `pcm` moved up (or down, when negative) by `semitones`, lasting just as long: stretched, then
 * read faster. `guide` is as for `timeStretch`.
 */
export function pitchShift(pcm: Pcm, semitones: number, guide: Pcm = pcm): Pcm {
  const length = frames(pcm);
  const stretched = timeStretch(pcm, 2 ** (semitones / 12), guide);
  const step = length === 0 ? 1 : frames(stretched) / length;
  return { rate: pcm.rate, channels: stretched.channels.map((channel) => resampled(channel, step, length)) };
}
