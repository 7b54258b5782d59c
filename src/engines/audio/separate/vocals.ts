/**
 * Separation without a trained model, by masks computed from the spectrogram itself.
 *
 * Stereo mixes carry the lead voice in the centre and most instruments off it, so a bin where
 * left and right agree is mostly voice (or a centred drum, which the next cue removes). Mono
 * leaves only the shape of the spectrogram: a voice is harmonic (steady across time on a short
 * scale, unlike a drum hit), yet unlike a held chord its partials keep moving with the melody
 * and the vibrato, so it is neither what spreads across frequency nor what stays still for a
 * second. The harmonic/percussive split also serves the instrument split of uploaded audio.
 */
import { type Pcm, frames, mono } from '../dsp/pcm.js';
import { type Spectrogram, analyse, binHz, magnitude, synthesise } from '../dsp/stft.js';

export type SeparationMethod = 'auto' | 'stereo' | 'mono';

export interface SeparateOptions {
  /** `auto` (the default) chooses `stereo` when the first two channels differ and `mono` otherwise. */
  method?: SeparationMethod;
}

export interface Separation {
  vocals: Pcm;
  /** The input minus `vocals`, so that the two add up to the input. */
  accompaniment: Pcm;
}

/** 0 below `low`, 1 above `high`, a raised cosine in log frequency between: edges that do not ring. */
export function rampUp(hz: number, low: number, high: number): number {
  if (hz <= low) return 0;
  if (hz >= high) return 1;
  return 0.5 - 0.5 * Math.cos((Math.PI * Math.log(hz / low)) / Math.log(high / low));
}

/** Above this nothing is voice, and the voice's share of a bin is not even computed. */
const VOICE_TOP_HZ = 12_000;

/** How much of a bin at `hz` can be voice: fundamentals from about 100 Hz, sibilance up to about 8 kHz. */
function voiceBand(hz: number): number {
  return rampUp(hz, 70, 140) * (1 - rampUp(hz, 7_000, VOICE_TOP_HZ));
}

/**
 * The median of the `width` values (an odd count) centred on each of `count` values spaced
 * `stride` apart from `offset`; near the ends, of those there are. The window is kept sorted and
 * slides by one removal and one insertion, so each step costs `width` moves, not a sort.
 */
function slidingMedian(
  source: Float64Array,
  into: Float64Array,
  offset: number,
  stride: number,
  count: number,
  width: number,
  sorted: Float64Array,
): void {
  const half = (width - 1) >> 1;
  let size = 0;
  const insert = (value: number) => {
    let at = size;
    while (at > 0 && sorted[at - 1]! > value) {
      sorted[at] = sorted[at - 1]!;
      at -= 1;
    }
    sorted[at] = value;
    size += 1;
  };
  const remove = (value: number) => {
    let at = 0;
    while (sorted[at] !== value) at += 1;
    for (; at < size - 1; at += 1) sorted[at] = sorted[at + 1]!;
    size -= 1;
  };
  for (let i = 0; i < Math.min(half, count); i += 1) insert(source[offset + i * stride]!);
  for (let i = 0; i < count; i += 1) {
    if (i - half - 1 >= 0) remove(source[offset + (i - half - 1) * stride]!);
    if (i + half < count) insert(source[offset + (i + half) * stride]!);
    const middle = size >> 1;
    into[offset + i * stride] =
      size % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  }
}

/**
 * Median of each bin over `width` frames taken every `spacing` frames: what holds still in time.
 * A spacing above 1 reaches far (a second and more) at the cost of a short window.
 */
function medianAcrossTime(magnitudes: Float64Array, bins: number, width: number, spacing = 1): Float64Array {
  const count = magnitudes.length / bins;
  const out = new Float64Array(magnitudes.length);
  const sorted = new Float64Array(width);
  for (let k = 0; k < bins; k += 1) {
    for (let phase = 0; phase < Math.min(spacing, count); phase += 1) {
      const start = phase * bins + k;
      slidingMedian(
        magnitudes,
        out,
        start,
        spacing * bins,
        Math.ceil((count - phase) / spacing),
        width,
        sorted,
      );
    }
  }
  return out;
}

/** Median of each frame over `width` neighbouring bins: what spreads across frequency (hits, noise). */
function medianAcrossFrequency(magnitudes: Float64Array, bins: number, width: number): Float64Array {
  const count = magnitudes.length / bins;
  const out = new Float64Array(magnitudes.length);
  const sorted = new Float64Array(width);
  for (let t = 0; t < count; t += 1) slidingMedian(magnitudes, out, t * bins, 1, bins, width, sorted);
  return out;
}

export interface HarmonicPercussive {
  /** Soft (Wiener) masks, one gain per frame and bin, summing to 1 in every bin. */
  harmonic: Float64Array;
  percussive: Float64Array;
}

/** Harmonic median: 21 frames taken every other frame, 0.48 s, longer than a kick drum's boom. */
const SUSTAIN_FRAMES = 21;
const SUSTAIN_SPACING = 2;
/** Frequency median for hits and noise: 17 bins, about 370 Hz. */
const HIT_BINS = 17;

/**
 * Harmonic/percussive masks by median filtering (after FitzGerald): sustained partials are lines
 * along time, hits are lines along frequency, and each median keeps one kind while erasing the
 * other. A low drum is no line across frequency, so the percussive estimate is also what a bin
 * holds in power above its sustained level, which a kick over a held bass note also leaves.
 */
export function harmonicPercussive(magnitudes: Float64Array, bins: number): HarmonicPercussive {
  const h = medianAcrossTime(magnitudes, bins, SUSTAIN_FRAMES, SUSTAIN_SPACING);
  const p = medianAcrossFrequency(magnitudes, bins, HIT_BINS);
  const harmonic = new Float64Array(magnitudes.length);
  const percussive = new Float64Array(magnitudes.length);
  for (let i = 0; i < magnitudes.length; i += 1) {
    const hh = h[i]! * h[i]!;
    const pp = Math.max(p[i]! * p[i]!, magnitudes[i]! * magnitudes[i]! - hh);
    const total = hh + pp;
    harmonic[i] = total > 0 ? hh / total : 0.5;
    percussive[i] = 1 - harmonic[i]!;
  }
  return { harmonic, percussive };
}

/** Frames on each side over which the channel statistics are averaged (±58 ms): a steadier mask. */
const CENTRE_SMOOTHING = 2;

/**
 * The sharpness of the centre mask, similarity^8: a source panned 20% off centre still keeps
 * 0.95^8 ≈ 2/3, one at 60% almost nothing. Three squarings: Math.pow over millions of bins costs more.
 */
function sharpened(similarity: number): number {
  const s2 = similarity * similarity;
  const s4 = s2 * s2;
  return s4 * s4;
}

/**
 * Centre mask after Avendano and Jot: 2·Re(L·conj R) / (|L|² + |R|²), averaged over a few frames,
 * is 1 where both channels carry the same thing, falls with the level difference of a panned
 * source, and goes to 0 or below for uncorrelated or out-of-phase content.
 */
function centreMask(left: Spectrogram, right: Spectrogram, rate: number): Float64Array {
  const { bins, size } = left;
  const n = left.re.length;
  const cross = new Float64Array(n);
  const power = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const lr = left.re[i]!;
    const li = left.im[i]!;
    const rr = right.re[i]!;
    const ri = right.im[i]!;
    power[i] = lr * lr + li * li + rr * rr + ri * ri;
    cross[i] = 2 * (lr * rr + li * ri);
  }
  const band = Float64Array.from({ length: bins }, (_, k) => voiceBand(binHz(k, size, rate)));
  // Above the voice band the mask is 0: those bins are not examined at all.
  const used = Math.min(bins, Math.ceil((VOICE_TOP_HZ * size) / rate) + 1);
  const mask = new Float64Array(n);
  const reach = CENTRE_SMOOTHING * bins;
  for (let i = 0; i < n; i += 1) {
    if (i % bins >= used) continue;
    let c = 0;
    let p = 0;
    for (let j = Math.max(i % bins, i - reach); j <= Math.min(n - 1, i + reach); j += bins) {
      c += cross[j]!;
      p += power[j]!;
    }
    const similarity = p > 0 ? c / p : 0;
    mask[i] = similarity > 0 ? sharpened(similarity) * band[i % bins]! : 0;
  }
  return mask;
}

/** Short harmonic median (about 0.1 s): long enough to erase hits, short enough to follow a sung note. */
const NOTE_FRAMES = 9;
/** Long median for what holds still: 31 frames, every 4th, span 1.4 s. */
const STILL_FRAMES = 31;
const STILL_SPACING = 4;

/**
 * The voice's share of every bin. Up to three estimates per bin: `note` (short median along
 * time) holds the voice and any held chords, `hit` (median along frequency) the drums, and, when
 * `chordsToo`, `still` (long median along time) the held chords alone: a sung partial that moves
 * with the melody and the vibrato leaves `still` low where `note` is high. The share is the
 * voice's Wiener weight among them, within the voice band.
 */
function voiceShare(spectrogram: Spectrogram, rate: number, chordsToo: boolean): Float64Array {
  const { bins, size, frames: count } = spectrogram;
  const full = magnitude([spectrogram]);
  // Only the voice band is examined: it is a quarter of the bins and the share is 0 above it.
  const used = Math.min(bins, Math.ceil((VOICE_TOP_HZ * size) / rate) + 1);
  const magnitudes = new Float64Array(count * used);
  for (let t = 0; t < count; t += 1) magnitudes.set(full.subarray(t * bins, t * bins + used), t * used);
  const note = medianAcrossTime(magnitudes, used, NOTE_FRAMES);
  const hit = medianAcrossFrequency(magnitudes, used, HIT_BINS);
  const still = chordsToo
    ? medianAcrossTime(magnitudes, used, STILL_FRAMES, STILL_SPACING)
    : new Float64Array(magnitudes.length);
  const band = Float64Array.from({ length: used }, (_, k) => voiceBand(binHz(k, size, rate)));
  const share = new Float64Array(full.length);
  for (let t = 0; t < count; t += 1) {
    for (let k = 0; k < used; k += 1) {
      const i = t * used + k;
      const voice = note[i]! * note[i]!;
      const total = voice + hit[i]! * hit[i]! + still[i]! * still[i]!;
      share[t * bins + k] = total > 0 ? (voice / total) * band[k]! : 0;
    }
  }
  return share;
}

/** Left and right agree where the voice is: the centre mask, narrowed to the voice's harmonic share. */
function stereoVocals(pcm: Pcm): Float32Array {
  const [left, right] = analyse(pcm.channels.slice(0, 2)) as [Spectrogram, Spectrogram];
  const mask = centreMask(left, right, pcm.rate);
  // The mask is applied to the mid signal: a centred voice is whole in it, while a source panned
  // to one side is weaker there than in that side's channel before the mask removes the rest.
  const mid = { ...left, re: new Float64Array(left.re.length), im: new Float64Array(left.im.length) };
  for (let i = 0; i < mid.re.length; i += 1) {
    mid.re[i] = (left.re[i]! + right.re[i]!) / 2;
    mid.im[i] = (left.im[i]! + right.im[i]!) / 2;
  }
  // Centred drums (the kick, the snare) pass the centre mask; the harmonic share stops them.
  // Held chords need no long median here: off centre, the centre mask already removes them.
  const share = voiceShare(mid, pcm.rate, false);
  for (let i = 0; i < mask.length; i += 1) mask[i]! *= share[i]!;
  return synthesise([mid], mask)[0]!;
}

function monoVocals(pcm: Pcm): Float32Array {
  const spectra = analyse([mono(pcm)]);
  return synthesise(spectra, voiceShare(spectra[0]!, pcm.rate, true))[0]!;
}

function identical(a: Float32Array, b: Float32Array): boolean {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Splits a mix into its lead vocal and the rest; `vocals + accompaniment` is the input sample for
 * sample. Every channel gets the same vocal: the voice is assumed centred, and one estimate
 * spares the listener a voice that wanders between the speakers as the masks change.
 */
export function separateVocals(pcm: Pcm, options: SeparateOptions = {}): Separation {
  const [first, second] = pcm.channels;
  const differ = first !== undefined && second !== undefined && !identical(first, second);
  const method = !options.method || options.method === 'auto' ? (differ ? 'stereo' : 'mono') : options.method;
  if (method === 'stereo' && second === undefined) throw new Error('stereo separation needs two channels');
  const length = frames(pcm);
  const voice =
    length === 0 ? new Float32Array(0) : method === 'stereo' ? stereoVocals(pcm) : monoVocals(pcm);
  const vocals = pcm.channels.map(() => voice.slice());
  const accompaniment = pcm.channels.map((channel) => {
    const rest = new Float32Array(length);
    for (let i = 0; i < length; i += 1) rest[i] = channel[i]! - voice[i]!;
    return rest;
  });
  return {
    vocals: { rate: pcm.rate, channels: vocals },
    accompaniment: { rate: pcm.rate, channels: accompaniment },
  };
}
