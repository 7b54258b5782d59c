/**
 * Loudness as streaming services measure it (ITU-R BS.1770-4, EBU R128): integrated loudness in
 * LUFS and true peak in dBTP. Mastering aims at these two numbers, so the meter has to agree with
 * the reference meters to a tenth of a dB.
 */
import type { Biquad } from '../dsp/biquad.js';
import { filter } from '../dsp/biquad.js';
import { frames, type Pcm } from '../dsp/pcm.js';

/**
 * The K-weighting pair (a high shelf for the head, then the RLB high-pass) in the closed form
 * that reproduces the standard's 48 kHz coefficients exactly and stays correct at other rates.
 */
function kWeighting(rate: number): Biquad[] {
  const shelfK = Math.tan((Math.PI * 1681.974450955533) / rate);
  const shelfQ = 0.7071752369554196;
  const vh = 10 ** (3.999843853973347 / 20);
  const vb = vh ** 0.4996667741545416;
  const shelfA0 = 1 + shelfK / shelfQ + shelfK * shelfK;
  const shelf: Biquad = {
    b0: (vh + (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
    b1: (2 * (shelfK * shelfK - vh)) / shelfA0,
    b2: (vh - (vb * shelfK) / shelfQ + shelfK * shelfK) / shelfA0,
    a1: (2 * (shelfK * shelfK - 1)) / shelfA0,
    a2: (1 - shelfK / shelfQ + shelfK * shelfK) / shelfA0,
  };
  const passK = Math.tan((Math.PI * 38.13547087602444) / rate);
  const passQ = 0.5003270373238773;
  const passA0 = 1 + passK / passQ + passK * passK;
  const highPass: Biquad = {
    b0: 1,
    b1: -2,
    b2: 1,
    a1: (2 * (passK * passK - 1)) / passA0,
    a2: (1 - passK / passQ + passK * passK) / passA0,
  };
  return [shelf, highPass];
}

const BLOCK_STEPS = 4;
const STEP_SECONDS = 0.1;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;

function loudnessOf(meanSquare: number): number {
  return -0.691 + 10 * Math.log10(meanSquare);
}

/**
 * Integrated loudness in LUFS: K-weighted mean square over 400 ms blocks overlapping by 75%, with
 * the absolute (-70 LUFS) and relative (-10 LU) gates. -Infinity when nothing passes the gates.
 */
export function integratedLoudness(pcm: Pcm): number {
  const length = frames(pcm);
  const steps = Math.floor(length / (STEP_SECONDS * pcm.rate));
  if (steps < BLOCK_STEPS) return -Infinity;
  // Energy per 100 ms step, summed over channels (front channels all weigh 1 in the standard, and
  // the engine's audio is mono or stereo): every block is four consecutive steps.
  const stepEnergy = new Float64Array(steps);
  const weighting = kWeighting(pcm.rate);
  for (const channel of pcm.channels) {
    const weighted = channel.slice(0, Math.round(steps * STEP_SECONDS * pcm.rate));
    for (const stage of weighting) filter(weighted, stage);
    for (let s = 0; s < steps; s += 1) {
      const from = Math.round(s * STEP_SECONDS * pcm.rate);
      const to = Math.round((s + 1) * STEP_SECONDS * pcm.rate);
      let sum = 0;
      for (let i = from; i < to; i += 1) sum += weighted[i]! * weighted[i]!;
      stepEnergy[s]! += sum;
    }
  }
  const blockCount = steps - BLOCK_STEPS + 1;
  const blockSamples = BLOCK_STEPS * STEP_SECONDS * pcm.rate;
  const blocks = new Float64Array(blockCount);
  for (let b = 0; b < blockCount; b += 1) {
    let sum = 0;
    for (let s = b; s < b + BLOCK_STEPS; s += 1) sum += stepEnergy[s]!;
    blocks[b] = sum / blockSamples;
  }
  const gatedMean = (threshold: number): number => {
    let sum = 0;
    let count = 0;
    for (const block of blocks) {
      if (loudnessOf(block) > threshold) {
        sum += block;
        count += 1;
      }
    }
    return count === 0 ? 0 : sum / count;
  };
  const absolute = gatedMean(ABSOLUTE_GATE_LUFS);
  if (absolute === 0) return -Infinity;
  const relative = gatedMean(loudnessOf(absolute) + RELATIVE_GATE_LU);
  return relative === 0 ? -Infinity : loudnessOf(relative);
}

/**
 * The 4x oversampling interpolator: windowed-sinc fractional delays for the three points between
 * two samples (the samples themselves are exact). Sixteen taps keep the gain within 0.01 dB up to
 * 15 kHz and 0.15 dB at 18 kHz at 44.1 kHz, which is what the agreement with reference meters needs.
 */
const OVERSAMPLING = 4;
const TAPS = 16;
const KAISER_BETA = 5;

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 40; k += 1) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

const phases: Float64Array[] = Array.from({ length: OVERSAMPLING - 1 }, (_, p) => {
  const offset = (p + 1) / OVERSAMPLING;
  const taps = new Float64Array(TAPS);
  let sum = 0;
  for (let i = 0; i < TAPS; i += 1) {
    const t = offset - (i - TAPS / 2 + 1);
    const sinc = Math.sin(Math.PI * t) / (Math.PI * t);
    const r = t / (TAPS / 2);
    taps[i] = (sinc * besselI0(KAISER_BETA * Math.sqrt(1 - r * r))) / besselI0(KAISER_BETA);
    sum += taps[i]!;
  }
  // Unity gain at DC, so a constant reads as itself.
  for (let i = 0; i < TAPS; i += 1) taps[i]! /= sum;
  return taps;
});

/** No interpolated point can exceed the largest nearby sample by more than this factor. */
const OVERSHOOT_BOUND = Math.max(...phases.map((taps) => taps.reduce((sum, tap) => sum + Math.abs(tap), 0)));

const [quarter, half, threeQuarters] = phases as [Float64Array, Float64Array, Float64Array];

/** The largest magnitude on [n, n + 1): the sample and the three points interpolated after it. */
function intervalPeak(samples: Float32Array, n: number): number {
  const first = n - TAPS / 2 + 1;
  let a = 0;
  let b = 0;
  let c = 0;
  if (first >= 0 && first + TAPS <= samples.length) {
    for (let i = 0; i < TAPS; i += 1) {
      const x = samples[first + i]!;
      a += quarter[i]! * x;
      b += half[i]! * x;
      c += threeQuarters[i]! * x;
    }
  } else {
    for (let i = 0; i < TAPS; i += 1) {
      const x = samples[first + i] ?? 0;
      a += quarter[i]! * x;
      b += half[i]! * x;
      c += threeQuarters[i]! * x;
    }
  }
  return Math.max(Math.abs(samples[n]!), Math.abs(a), Math.abs(b), Math.abs(c));
}

/**
 * Per sample, the largest magnitude over all channels on [n, n + 1) at 4x oversampling, as a
 * linear amplitude: the detector a limiter needs to keep the true peak under a ceiling.
 */
export function truePeakEnvelope(pcm: Pcm): Float32Array {
  const envelope = new Float32Array(frames(pcm));
  for (const channel of pcm.channels) {
    for (let n = 0; n < channel.length; n += 1)
      envelope[n] = Math.max(envelope[n]!, intervalPeak(channel, n));
  }
  return envelope;
}

const SCAN_BLOCK = 64;

/**
 * True peak in dBTP: the largest magnitude at 4x oversampling over all channels. Only the loudest
 * stretches are interpolated: a stretch whose samples, times the interpolator's largest possible
 * overshoot, stay under the peak found so far cannot hold the maximum.
 */
export function truePeak(pcm: Pcm): number {
  const length = frames(pcm);
  const blockCount = Math.ceil(length / SCAN_BLOCK);
  const blockMax = new Float32Array(blockCount);
  for (const channel of pcm.channels) {
    for (let n = 0; n < length; n += 1) {
      const b = Math.floor(n / SCAN_BLOCK);
      blockMax[b] = Math.max(blockMax[b]!, Math.abs(channel[n]!));
    }
  }
  // A block's interpolated points depend on samples up to TAPS / 2 away, so within the neighbours.
  const reach = Float32Array.from(blockMax, (value, b) =>
    Math.max(value, blockMax[b - 1] ?? 0, blockMax[b + 1] ?? 0),
  );
  const order = Array.from({ length: blockCount }, (_, b) => b).sort((x, y) => reach[y]! - reach[x]!);
  let peak = blockMax.reduce((max, value) => Math.max(max, value), 0);
  for (const b of order) {
    if (reach[b]! * OVERSHOOT_BOUND <= peak) break;
    const end = Math.min(length, (b + 1) * SCAN_BLOCK);
    for (const channel of pcm.channels) {
      for (let n = b * SCAN_BLOCK; n < end; n += 1) peak = Math.max(peak, intervalPeak(channel, n));
    }
  }
  return 20 * Math.log10(peak);
}
