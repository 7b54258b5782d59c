/**
 * Short-time Fourier analysis and resynthesis of single channels: every separation in the engine
 * works by scaling time-frequency bins with a real mask and turning the result back into sound.
 * Hann analysis and synthesis windows at 75% overlap, so an untouched spectrogram comes back as
 * the input to rounding error. Channels are transformed two at a time (one real signal in the
 * real part, the other in the imaginary part of one complex FFT), which halves the work.
 */
import { fft, hann } from '../../signal/index.js';

export const FRAME_SIZE = 2048;
export const HOP = 512;

/** The half spectrum (bins 0..size/2) of every frame of one channel, frame after frame in flat arrays. */
export interface Spectrogram {
  size: number;
  hop: number;
  /** Samples of the analysed signal, so resynthesis returns exactly as many. */
  length: number;
  frames: number;
  bins: number;
  /** Bin `k` of frame `t` is at `t * bins + k`. */
  re: Float64Array;
  im: Float64Array;
}

/**
 * Frame `t` starts at sample `t * hop - (size - hop)`, so every sample, the first and the last
 * included, lies under `size / hop` frames and is restored as well as the middle ones.
 */
function frameCount(length: number, size: number, hop: number): number {
  return length === 0 ? 0 : Math.floor((length - 1 + size - hop) / hop) + 1;
}

function frameStart(t: number, size: number, hop: number): number {
  return t * hop - (size - hop);
}

function empty(length: number, size: number, hop: number): Spectrogram {
  if (size % hop !== 0) throw new Error(`hop ${hop} does not divide the frame size ${size}`);
  const frames = frameCount(length, size, hop);
  const bins = size / 2 + 1;
  return {
    size,
    hop,
    length,
    frames,
    bins,
    re: new Float64Array(frames * bins),
    im: new Float64Array(frames * bins),
  };
}

/** Spectrograms of each channel (all of one length). */
export function analyse(channels: readonly Float32Array[], size = FRAME_SIZE, hop = HOP): Spectrogram[] {
  const window = hann(size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const out = channels.map((channel) => empty(channel.length, size, hop));
  for (let c = 0; c < channels.length; c += 2) {
    const a = channels[c]!;
    const b = channels[c + 1];
    const sa = out[c]!;
    const sb = out[c + 1];
    const { frames, bins } = sa;
    for (let t = 0; t < frames; t += 1) {
      const start = frameStart(t, size, hop);
      for (let n = 0; n < size; n += 1) {
        const i = start + n;
        const inside = i >= 0 && i < a.length;
        re[n] = inside ? a[i]! * window[n]! : 0;
        im[n] = inside && b ? b[i]! * window[n]! : 0;
      }
      fft(re, im);
      const row = t * bins;
      if (!sb) {
        sa.re.set(re.subarray(0, bins), row);
        sa.im.set(im.subarray(0, bins), row);
        continue;
      }
      // Z = A + iB with A, B Hermitian: A[k] = (Z[k] + conj Z[-k]) / 2, B[k] = (Z[k] - conj Z[-k]) / 2i.
      for (let k = 0; k < bins; k += 1) {
        const m = (size - k) % size;
        const zr = re[k]!;
        const zi = im[k]!;
        const wr = re[m]!;
        const wi = im[m]!;
        sa.re[row + k] = (zr + wr) / 2;
        sa.im[row + k] = (zi - wi) / 2;
        sb.re[row + k] = (zi + wi) / 2;
        sb.im[row + k] = (wr - zr) / 2;
      }
    }
  }
  return out;
}

/**
 * Channels back from spectrograms (all of one shape) by weighted overlap-add, each bin first
 * scaled by `mask` (one gain per frame and bin, shared by every channel) when one is given.
 */
export function synthesise(spectrograms: readonly Spectrogram[], mask?: Float64Array): Float32Array[] {
  const first = spectrograms[0];
  if (!first) return [];
  const { size, hop, length, frames, bins } = first;
  const window = hann(size);
  const overlap = size / hop;
  // The sum of squared windows over the frames that cover a sample depends only on its place in the hop.
  const norm = new Float64Array(hop);
  for (let j = 0; j < hop; j += 1) {
    for (let m = 0; m < overlap; m += 1) norm[j]! += window[j + m * hop]! ** 2;
  }
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const out = spectrograms.map(() => new Float32Array(length));
  const sums = [new Float64Array(length), new Float64Array(length)];
  for (let c = 0; c < spectrograms.length; c += 2) {
    const sa = spectrograms[c]!;
    const sb = spectrograms[c + 1];
    const [ya, yb] = sums as [Float64Array, Float64Array];
    ya.fill(0);
    yb.fill(0);
    for (let t = 0; t < frames; t += 1) {
      const row = t * bins;
      // Full spectrum of A + iB from the two half spectra: the inverse then holds A in re, B in im.
      for (let k = 0; k < bins; k += 1) {
        const g = mask ? mask[row + k]! : 1;
        const ar = sa.re[row + k]! * g;
        const ai = sa.im[row + k]! * g;
        const br = sb ? sb.re[row + k]! * g : 0;
        const bi = sb ? sb.im[row + k]! * g : 0;
        re[k] = ar - bi;
        im[k] = ai + br;
        if (k > 0 && k < size / 2) {
          re[size - k] = ar + bi;
          im[size - k] = br - ai;
        }
      }
      fft(re, im, true);
      const start = frameStart(t, size, hop);
      const from = Math.max(0, -start);
      const to = Math.min(size, length - start);
      for (let n = from; n < to; n += 1) {
        ya[start + n]! += re[n]! * window[n]!;
        yb[start + n]! += im[n]! * window[n]!;
      }
    }
    const oa = out[c]!;
    const ob = out[c + 1];
    for (let i = 0; i < length; i += 1) {
      const w = norm[i % hop]!;
      oa[i] = ya[i]! / w;
      if (ob) ob[i] = yb[i]! / w;
    }
  }
  return out;
}

/** Magnitude of every bin, averaged over the channels: one picture of the sound to compute masks from. */
export function magnitude(spectrograms: readonly Spectrogram[]): Float64Array {
  const first = spectrograms[0]!;
  const out = new Float64Array(first.re.length);
  for (const s of spectrograms) {
    for (let i = 0; i < out.length; i += 1) {
      out[i]! += Math.sqrt(s.re[i]! * s.re[i]! + s.im[i]! * s.im[i]!) / spectrograms.length;
    }
  }
  return out;
}

/** Centre frequency of bin `k`. */
export function binHz(k: number, size: number, rate: number): number {
  return (k * rate) / size;
}
