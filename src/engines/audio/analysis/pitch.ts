/**
 * The fundamental frequency of a voice or a melody over time (YIN), to learn a singer's register
 * from a vocal and to follow a melody someone sang or played. The difference function is taken
 * through the FFT, and on audio at half the rate where it allows, so a song-length vocal takes a
 * fraction of a second.
 */
import { biquad, filterChain } from '../dsp/biquad.js';
import { fft } from '../../signal/index.js';

export interface PitchOptions {
  /** Seconds between estimates; frame i is centred at i * hopSeconds. */
  hopSeconds?: number;
  minHz?: number;
  maxHz?: number;
  /** YIN's threshold on the normalised difference: lower is stricter about what counts as voiced. */
  threshold?: number;
}

/** Frames quieter than this, relative to the loudest frame, are taken as silence. */
const SILENCE_DB = -45;
/** And so is anything under this absolute level, whatever the loudest frame. */
const FLOOR_DB = -70;
/** Above this rate the signal is halved first: at 22 kHz, interpolated periods are still exact to a cent. */
const DECIMATE_ABOVE = 30_000;

/** `samples` at half the rate, low-passed first so that little of the top octave folds back. */
function halved(samples: Float32Array, rate: number): Float32Array {
  const filtered = filterChain(samples.slice(), [
    biquad('lowpass', rate * 0.2, rate),
    biquad('lowpass', rate * 0.2, rate),
  ]);
  const out = new Float32Array(Math.floor(filtered.length / 2));
  for (let i = 0; i < out.length; i += 1) out[i] = filtered[2 * i]!;
  return out;
}

/**
 * The f0 of `samples` in Hz per frame, 0 where the frame is unvoiced or silent. Each frame is
 * compared with itself shifted by every candidate period; the first period whose cumulative-mean
 * normalised difference dips under the threshold wins, refined between lags by a parabola.
 */
export function pitchTrack(samples: Float32Array, rate: number, options: PitchOptions = {}): Float32Array {
  const hopSeconds = options.hopSeconds ?? 0.01;
  const minHz = options.minHz ?? 70;
  const maxHz = options.maxHz ?? 1000;
  const threshold = options.threshold ?? 0.15;
  const frameCount = Math.ceil(samples.length / rate / hopSeconds);
  const track = new Float32Array(frameCount);
  const signal = rate > DECIMATE_ABOVE ? halved(samples, rate) : samples;
  const signalRate = rate > DECIMATE_ABOVE ? rate / 2 : rate;
  const longestLag = Math.ceil(signalRate / minHz);
  const shortestLag = Math.max(2, Math.floor(signalRate / maxHz));
  // The window holds at least one longest period, as YIN asks.
  const width = 2 ** Math.ceil(Math.log2(longestLag));
  const size = 2 ** Math.ceil(Math.log2(width + longestLag + 1));
  const padded = new Float32Array(signal.length + width + longestLag + 1);
  padded.set(signal, width / 2);
  const energy = new Float64Array(padded.length + 1);
  for (let i = 0; i < padded.length; i += 1) energy[i + 1] = energy[i]! + padded[i]! * padded[i]!;
  const starts = Int32Array.from({ length: frameCount }, (_, f) => Math.round(f * hopSeconds * signalRate));
  const frameEnergy = (start: number) => energy[start + width]! - energy[start]!;
  let loudest = 0;
  for (const start of starts) loudest = Math.max(loudest, frameEnergy(start));
  const gate = Math.max(loudest * 10 ** (SILENCE_DB / 10), width * 10 ** (FLOOR_DB / 10));
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const normalised = new Float64Array(longestLag + 2);
  starts.forEach((start, f) => {
    const e0 = frameEnergy(start);
    if (e0 < gate) return;
    // The frame (real part) against the frame with its continuation (imaginary part): one FFT
    // gives both spectra, and their cross spectrum gives every lag's product sum.
    for (let i = 0; i < size; i += 1) {
      re[i] = i < width ? padded[start + i]! : 0;
      im[i] = i < width + longestLag + 1 ? padded[start + i]! : 0;
    }
    fft(re, im);
    for (let k = 0; k <= size / 2; k += 1) {
      const j = (size - k) % size;
      const aRe = (re[k]! + re[j]!) / 2;
      const aIm = (im[k]! - im[j]!) / 2;
      const bRe = (im[k]! + im[j]!) / 2;
      const bIm = (re[j]! - re[k]!) / 2;
      // conj(A) * B, kept Hermitian so the inverse is real.
      const cRe = aRe * bRe + aIm * bIm;
      const cIm = aRe * bIm - aIm * bRe;
      re[k] = cRe;
      im[k] = cIm;
      re[j] = cRe;
      im[j] = -cIm;
    }
    fft(re, im, true);
    let running = 0;
    let chosen = -1;
    for (let lag = 1; lag <= longestLag + 1; lag += 1) {
      const shifted = energy[start + lag + width]! - energy[start + lag]!;
      const difference = Math.max(0, e0 + shifted - 2 * re[lag]!);
      running += difference;
      normalised[lag] = running === 0 ? 1 : (difference * lag) / running;
    }
    for (let lag = shortestLag; lag <= longestLag; lag += 1) {
      if (normalised[lag]! < threshold) {
        while (lag < longestLag && normalised[lag + 1]! < normalised[lag]!) lag += 1;
        chosen = lag;
        break;
      }
    }
    if (chosen < 0) return;
    const left = normalised[chosen - 1]!;
    const centre = normalised[chosen]!;
    const right = normalised[chosen + 1]!;
    const curvature = left - 2 * centre + right;
    const shift = curvature > 0 ? (0.5 * (left - right)) / curvature : 0;
    track[f] = signalRate / (chosen + shift);
  });
  return track;
}

/** The median f0 of the voiced frames of `track`, 0 when none is voiced. */
export function medianPitch(track: Float32Array): number {
  const voiced = track.filter((f0) => f0 > 0).sort();
  if (voiced.length === 0) return 0;
  const middle = voiced.length >> 1;
  return voiced.length % 2 === 1 ? voiced[middle]! : (voiced[middle - 1]! + voiced[middle]!) / 2;
}
