/**
 * Mastering: a gentle EQ, the gain that brings a song to streaming loudness, and a look-ahead
 * limiter that keeps its true peak under a ceiling. Planned once on the mix and applied as a
 * linear operation, so the song's stems, mastered with the same plan, still sum to the master.
 */
import { biquad, filterChain, type Biquad } from '../dsp/biquad.js';
import { integratedLoudness, truePeak, truePeakEnvelope } from './loudness.js';
import { frames, type Pcm } from '../dsp/pcm.js';

/** The integrated loudness the streaming services normalise to. */
export const TARGET_LUFS = -14;

/**
 * The true-peak ceiling: streaming services ask for -1 dBTP, and the MP3 encoding that follows
 * mastering adds a few tenths of a dB of peak, so the limiter aims half a dB lower.
 */
export const CEILING_DBTP = -1.5;

/** How the song is mastered: plain numbers and typed arrays, so it can be posted between threads. */
export interface Master {
  /** The sample rate the EQ was designed for. */
  rate: number;
  /** The EQ, applied first. */
  eq: Biquad[];
  /** Linear gain after the EQ. */
  gain: number;
  /** The limiter's gain per sample (at most 1), applied last. */
  envelope: Float32Array;
}

/**
 * Rumble removed below 30 Hz, and about a dB of warmth under 100 Hz and of air above 10 kHz: a
 * lift a listener hears as polish, too small to change the balance the arrangement chose. The
 * band above 20 kHz goes too: nobody hears it, MP3 drops it, and next to the Nyquist frequency
 * it makes inter-sample peaks on which true-peak meters disagree.
 */
function masterEq(rate: number): Biquad[] {
  return [
    biquad('highpass', 30, rate),
    biquad('lowshelf', 100, rate, Math.SQRT1_2, 1),
    biquad('highshelf', 10_000, rate, Math.SQRT1_2, 1.5),
    biquad('lowpass', 20_000, rate),
  ];
}

/** 5 ms of look-ahead: the gain is fully down when a peak arrives, and the ramp is too slow to click. */
const LOOKAHEAD_SECONDS = 0.005;
/** The release: fast enough not to duck the beat after a peak, slow enough not to distort bass. */
const RELEASE_SECONDS = 0.08;
/**
 * The limiter holds the detector's peaks under its limit, but a gain that moves between samples
 * moves the interpolated points a little too: a hundredth of a dB of room absorbs it.
 */
const LIMIT_MARGIN_DB = 0.01;
const MAX_PASSES = 8;
/** How close to the target loudness the plan settles, in LU: the reference meters print tenths. */
const LOUDNESS_TOLERANCE = 0.1;

/**
 * The limiter's gain for `detector` (true-peak magnitude per sample) scaled by `gain`, so that no
 * sample exceeds `limit`. The gain each sample needs is taken as a minimum over the look-ahead,
 * released exponentially, then averaged over the look-ahead: every average covers the sample it
 * protects, so it never exceeds what that sample needs, and the attack becomes a smooth ramp.
 */
function limiterEnvelope(detector: Float32Array, gain: number, limit: number, rate: number): Float32Array {
  const length = detector.length;
  const lookahead = Math.max(1, Math.round(LOOKAHEAD_SECONDS * rate));
  const release = 1 - Math.exp(-1 / (RELEASE_SECONDS * rate));
  // Position p stands for sample p - lead: the ramp before the first sample needs room too.
  const lead = lookahead - 1;
  const span = length + lead;
  const needed = (p: number): number => {
    const n = p - lead;
    if (n < 0 || n >= length) return 1;
    // A peak between samples n and n + 1 is shaped by the gain at both.
    const peak = gain * Math.max(detector[n]!, n > 0 ? detector[n - 1]! : 0);
    return peak > limit ? limit / peak : 1;
  };
  // The minimum over [p, p + lookahead), by a queue of positions whose needs increase.
  const ahead = new Float32Array(span);
  const queue = new Int32Array(span + lookahead);
  const queued = new Float32Array(span + lookahead);
  let head = 0;
  let tail = 0;
  for (let q = 0; q < span + lead; q += 1) {
    const value = needed(q);
    while (tail > head && queued[tail - 1]! >= value) tail -= 1;
    queue[tail] = q;
    queued[tail] = value;
    tail += 1;
    const start = q - lead;
    if (start < 0) continue;
    while (queue[head]! < start) head += 1;
    ahead[start] = queued[head]!;
  }
  let level = 1;
  for (let p = 0; p < span; p += 1) {
    level = ahead[p]! < level ? ahead[p]! : level + (ahead[p]! - level) * release;
    ahead[p] = level;
  }
  const envelope = new Float32Array(length);
  let sum = 0;
  for (let p = 0; p < span; p += 1) {
    sum += ahead[p]!;
    if (p >= lookahead) sum -= ahead[p - lookahead]!;
    if (p >= lead) envelope[p - lead] = sum / lookahead;
  }
  return envelope;
}

/** `equalised` times the gain and the envelope: what `applyMaster` gives, without filtering again. */
function shaped(equalised: Pcm, gain: number, envelope: Float32Array): Pcm {
  return {
    rate: equalised.rate,
    channels: equalised.channels.map((channel) => {
      const out = new Float32Array(channel.length);
      for (let i = 0; i < channel.length; i += 1) out[i] = channel[i]! * gain * envelope[i]!;
      return out;
    }),
  };
}

/**
 * Plans the master of `mix`: the EQ, then the gain and limiter that reach the target loudness
 * with the true peak under the ceiling. Limiting takes loudness away and gain adds peaks, so the
 * two are settled together over a few passes, each measuring what the last one produced.
 */
export function planMaster(mix: Pcm, options: { lufs?: number; truePeakDb?: number } = {}): Master {
  const target = options.lufs ?? TARGET_LUFS;
  const ceilingDb = options.truePeakDb ?? CEILING_DBTP;
  const eq = masterEq(mix.rate);
  const equalised: Pcm = { rate: mix.rate, channels: mix.channels.map((c) => filterChain(c.slice(), eq)) };
  const initial = integratedLoudness(equalised);
  if (!Number.isFinite(initial)) {
    return { rate: mix.rate, eq, gain: 1, envelope: new Float32Array(frames(mix)).fill(1) };
  }
  const detector = truePeakEnvelope(equalised);
  let gainDb = target - initial;
  let limit = 10 ** ((ceilingDb - LIMIT_MARGIN_DB) / 20);
  let previous: { gainDb: number; lufs: number } | undefined;
  let master: Master | undefined;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const gain = 10 ** (gainDb / 20);
    master = { rate: mix.rate, eq, gain, envelope: limiterEnvelope(detector, gain, limit, mix.rate) };
    const result = shaped(equalised, gain, master.envelope);
    const lufs = integratedLoudness(result);
    // The peak is only checked once the loudness is right: the passes before are drafts.
    if (Math.abs(lufs - target) <= LOUDNESS_TOLERANCE) {
      const peakDb = truePeak(result);
      if (peakDb <= ceilingDb) break;
      limit *= 10 ** ((ceilingDb - peakDb - LIMIT_MARGIN_DB) / 20);
      // A new limit makes a new curve of loudness against gain: the slope measured so far is void.
      previous = undefined;
      continue;
    }
    // Under limiting a dB of gain buys less than a dB of loudness: step by the slope last measured.
    const step = previous && Math.abs(gainDb - previous.gainDb) > 1e-6 ? gainDb - previous.gainDb : 0;
    const slope = step === 0 ? 1 : Math.min(1, Math.max(0.1, (lufs - previous!.lufs) / step));
    previous = { gainDb, lufs };
    gainDb += (target - lufs) / slope;
  }
  return master!;
}

/**
 * Masters `pcm` (the mix or one of its stems) as planned: EQ, gain, then the limiter's envelope.
 * Linear in `pcm`, so mastered stems sum to the mastered mix. Samples past the planned length
 * keep the envelope's last gain.
 */
export function applyMaster(master: Master, pcm: Pcm): Pcm {
  if (pcm.rate !== master.rate) throw new Error(`planned at ${master.rate} Hz, given ${pcm.rate} Hz`);
  const { envelope, gain } = master;
  const last = envelope[envelope.length - 1] ?? 1;
  return {
    rate: pcm.rate,
    channels: pcm.channels.map((channel) => {
      const out = filterChain(channel.slice(), master.eq);
      for (let i = 0; i < out.length; i += 1) out[i] = out[i]! * gain * (envelope[i] ?? last);
      return out;
    }),
  };
}
