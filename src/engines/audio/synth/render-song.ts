/**
 * A plan rendered into stems at 44.1 kHz stereo, each exactly the song's length: the sung vocal
 * (mono, dead centre), the drums, and one stem per instrument, panned. The caller sums them into
 * the mix, so each stem's level depends only on itself and the plan: a stem rendered alone
 * (`parts`) is the same as in a full render, and the peaks of all the plan's stems together
 * stay below full scale.
 */
import { partEvents } from '../compose/arrange.js';
import { renderDrums } from './drums.js';
import { renderInstrument } from './instruments.js';
import { SAMPLE_RATE, type Pcm } from '../dsp/pcm.js';
import type { SongPlan } from '../compose/plan.js';
import { singVocalLine } from '../voice/vocal-line.js';

const VOCALS = 'vocals';
const DRUMS = 'drums';

/** The stems a plan renders to: vocals when something is sung, drums when there are drums, then each instrument. */
export function stemNames(plan: SongPlan): string[] {
  const names: string[] = [];
  if (plan.melody.some((note) => note.text !== null)) names.push(VOCALS);
  if (plan.drums) names.push(DRUMS);
  for (const part of plan.parts) if (!names.includes(part.name)) names.push(part.name);
  return names;
}

/**
 * How a stem sits in the mix: its loudness relative to the others (RMS, linear) and the peak to
 * RMS ratio its kind of sound usually has (plucks and struck chords are spiky, pads smooth).
 */
interface Share {
  weight: number;
  crest: number;
}

const CREST: Record<string, number> = {
  vocals: 5,
  drums: 6,
  piano: 7,
  guitar: 9,
  bass: 4.5,
  pad: 5,
  strings: 6,
  organ: 5.5,
  bells: 6,
  lead: 6,
  brass: 5.5,
  flute: 4,
};
const GUITAR_CREST: Partial<Record<string, number>> = { picking: 16, strum: 10, power: 4 };

function shareOf(plan: SongPlan, name: string): Share {
  if (name === VOCALS) return { weight: 1, crest: CREST.vocals! };
  if (name === DRUMS) return { weight: 0.9, crest: CREST.drums! };
  const part = plan.parts.find((p) => p.name === name);
  const crest = name === 'guitar' ? (GUITAR_CREST[part?.role ?? ''] ?? CREST.guitar!) : (CREST[name] ?? 6);
  return { weight: part?.gain ?? 0.5, crest };
}

/** The most the peaks of all the plan's stems may add up to: the mix can never pass this, whatever lines up. */
const PEAK_BUDGET = 0.98;

/** Loudness while playing (silent stretches, a part resting, do not count) and the peak, of one channel. */
function measure(samples: Float32Array): { rms: number; peak: number } {
  const block = 2048;
  const energies: number[] = [];
  let peak = 0;
  for (let start = 0; start < samples.length; start += block) {
    const end = Math.min(samples.length, start + block);
    let sum = 0;
    for (let i = start; i < end; i += 1) {
      const v = samples[i]!;
      sum += v * v;
      if (v > peak) peak = v;
      else if (-v > peak) peak = -v;
    }
    energies.push(sum / (end - start));
  }
  const loudest = Math.max(0, ...energies);
  const playing = energies.filter((e) => e > loudest * 0.01);
  return { rms: Math.sqrt(playing.reduce((a, b) => a + b, 0) / Math.max(1, playing.length)), peak };
}

/**
 * The gain that gives a stem its share of the mix. Each stem is allowed a slice of the peak
 * budget in proportion to its weight and usual crest factor, so the slices sum to the budget;
 * its RMS target is that slice over its crest. A stem spikier than usual is held by its peak.
 */
function gainFor(rms: number, peak: number, share: Share, shares: readonly Share[]): number {
  if (rms === 0 || peak === 0) return 0;
  const allowance =
    (PEAK_BUDGET * share.weight * share.crest) / shares.reduce((sum, s) => sum + s.weight * s.crest, 0);
  return Math.min(allowance / share.crest / rms, allowance / peak);
}

/**
 * A mono source turned into a stereo stem (in place: it becomes the left channel) with its pan, gain, a short fade in (a window may
 * start mid-note) and the plan's fade out, in one pass.
 */
function place(mono: Float32Array, pan: number, gain: number, plan: SongPlan): Pcm {
  const angle = ((pan + 1) * Math.PI) / 4;
  const [gl, gr] = [gain * Math.cos(angle) * Math.SQRT2, gain * Math.sin(angle) * Math.SQRT2];
  const length = mono.length;
  // The mono buffer becomes the left channel: one large allocation fewer per stem.
  const left = mono;
  const right = new Float32Array(length);
  const fadeIn = Math.min(length, Math.round(0.005 * SAMPLE_RATE));
  const fadeStart = length - Math.min(length, Math.round(plan.fadeOut * SAMPLE_RATE));
  for (let i = 0; i < length; i += 1) {
    const v = mono[i]!;
    left[i] = v * gl;
    right[i] = v * gr;
  }
  for (let i = 0; i < fadeIn; i += 1) {
    left[i]! *= i / fadeIn;
    right[i]! *= i / fadeIn;
  }
  for (let i = fadeStart; i < length; i += 1) {
    const g = 0.5 + 0.5 * Math.cos((Math.PI * (i - fadeStart)) / (length - fadeStart));
    left[i]! *= g;
    right[i]! *= g;
  }
  return { rate: SAMPLE_RATE, channels: [left, right] };
}

/**
 * Renders a plan's stems (all of them, or only those named in `parts`), each `plan.duration` long,
 * side by side (the instruments are played by their own processes); `onStem` hears of each stem
 * as its rendering starts.
 */
export async function renderSong(
  plan: SongPlan,
  options: { parts?: string[]; onStem?: (name: string, index: number, count: number) => void } = {},
): Promise<{ stems: Record<string, Pcm>; duration: number }> {
  const rate = SAMPLE_RATE;
  const frames = Math.round(plan.duration * rate);
  const names = stemNames(plan);
  const shares = names.map((name) => shareOf(plan, name));
  const rendering = names.filter((name) => !options.parts || options.parts.includes(name));
  const stem = async (name: string, index: number): Promise<Pcm> => {
    options.onStem?.(name, index, rendering.length);
    const share = shareOf(plan, name);
    if (name === DRUMS) {
      // The kit is already spread across the field: each side keeps its own image.
      const [left, right] = (await renderDrums(plan, frames, rate)).channels as [Float32Array, Float32Array];
      const [l, r] = [measure(left), measure(right)];
      const gain =
        gainFor(Math.hypot(l.rms, r.rms) / Math.SQRT2, Math.max(l.peak, r.peak), share, shares) / Math.SQRT2;
      const scaledRight = place(right, 1, gain, plan).channels[1]!;
      return { rate, channels: [place(left, -1, gain, plan).channels[0]!, scaledRight] };
    }
    let mono: Float32Array;
    let pan = 0;
    if (name === VOCALS) {
      mono = await singVocalLine(plan, frames, rate);
    } else {
      const part = plan.parts.find((p) => p.name === name)!;
      const options = { rate, seed: plan.seed, brightness: plan.brightness, weirdness: plan.weirdness };
      mono = await renderInstrument(part, partEvents(plan, part), frames, options);
      pan = part.pan;
    }
    const { rms, peak } = measure(mono);
    // Constant-power panning: the louder side carries up to √2 times the mono peak.
    const angle = ((pan + 1) * Math.PI) / 4;
    const side = Math.SQRT2 * Math.max(Math.cos(angle), Math.sin(angle));
    return place(mono, pan, gainFor(rms, peak * side, share, shares), plan);
  };
  const rendered = await Promise.all(rendering.map(stem));
  return {
    stems: Object.fromEntries(rendering.map((name, i) => [name, rendered[i]!])),
    duration: plan.duration,
  };
}
