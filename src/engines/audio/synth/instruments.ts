/**
 * The instruments of the band, each a generator from `generators.ts` with its own envelope,
 * timbre and tone shaping (biquad filters over the whole part): piano (struck partials), guitar
 * (plucked strings, overdriven for electric), bass, pad (detuned saws, low-passed), strings,
 * organ (drawbars with a rotary tremolo), bells (FM), lead synth, brass and flute. Weirdness
 * detunes every note a little, and widens the pad's detuning.
 */
import { biquad, filterChain } from '../dsp/biquad.js';
import { hashOf, seeded } from '../../random.js';
import { harmonicTable, tableFor, SINE, TABLE_SIZE } from './wavetable.js';
import {
  renderBells,
  renderPlucks,
  renderStruck,
  renderTones,
  type NoteEvent,
  type Partial,
  type ToneSpec,
} from './generators.js';
import type { InstrumentName } from '../compose/vocabulary.js';

export interface InstrumentOptions {
  rate: number;
  seed: number;
  /** 0..1: filter openness. */
  brightness: number;
  /** 0..1: per-note detuning. */
  weirdness: number;
}

const GRAND: Partial[] = [1, 0.55, 0.32, 0.24, 0.16, 0.11, 0.07, 0.05, 0.035, 0.025].map((amplitude, i) => {
  const k = i + 1;
  // A stiff string's partials run sharp: f_k = k·f·sqrt(1 + B·k²).
  return {
    ratio: k * Math.sqrt(1 + 0.0004 * k * k),
    amplitude: amplitude * Math.abs(Math.sin((Math.PI * k) / 7.3)),
    decay: 1 / (1 + 0.35 * i),
  };
});
const ELECTRIC_PIANO: Partial[] = [
  { ratio: 1, amplitude: 1, decay: 1 },
  { ratio: 2, amplitude: 0.28, decay: 0.5 },
  { ratio: 3, amplitude: 0.07, decay: 0.35 },
  { ratio: 9.1, amplitude: 0.09, decay: 0.05 },
];
const MUTED_PIANO = GRAND.slice(0, 5);

const saw = (hz: number, rate: number) => tableFor('saw', hz, rate);
const square = (hz: number, rate: number) => tableFor('square', hz, rate);
/** The table made for two octaves up has a quarter as many harmonics: a darker tone at the same pitch. */
const dullSaw = (hz: number, rate: number) => tableFor('saw', hz * 4, rate);
const dullSquare = (hz: number, rate: number) => tableFor('square', hz * 4, rate);

const BASS_TONES: Record<string, ToneSpec> = {
  electric: {
    table: () => harmonicTable([1, 0.5, 0.28, 0.14, 0.07]),
    voices: [0],
    attack: 0.004,
    decay: 0.5,
    sustain: 0.45,
    release: 0.08,
  },
  upright: {
    table: () => harmonicTable([1, 0.4, 0.15, 0.05]),
    voices: [0],
    attack: 0.01,
    decay: 0.35,
    sustain: 0.2,
    release: 0.06,
  },
  // A sine under a sixteen-harmonic saw: the weight stays in the fundamental.
  synth: {
    table: () => harmonicTable([1.6, ...Array.from({ length: 15 }, (_, i) => 1 / (i + 2))]),
    voices: [0, 7],
    attack: 0.004,
    decay: 0.3,
    sustain: 0.6,
    release: 0.06,
  },
  '808': {
    table: () => harmonicTable([1, 0.06]),
    voices: [0],
    attack: 0.003,
    decay: 0.9,
    sustain: 0,
    release: 0.12,
  },
};

/** Soft saturation, x(27 + x²)/(27 + 9x²): odd harmonics without a hard corner. */
function saturate(samples: Float32Array, drive: number): void {
  for (let i = 0; i < samples.length; i += 1) {
    const x = Math.max(-3, Math.min(3, samples[i]! * drive));
    samples[i] = (x * (27 + x * x)) / (27 + 9 * x * x);
  }
}

/** A rotary speaker's amplitude wobble, read from the sine table. */
function tremolo(samples: Float32Array, hz: number, depth: number, rate: number): void {
  const step = (hz * TABLE_SIZE) / rate;
  let phase = 0;
  for (let i = 0; i < samples.length; i += 1) {
    samples[i]! *= 1 - depth + depth * SINE[phase | 0]!;
    phase += step;
    if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
  }
}

/** Peak of a buffer, for scaling before saturation. */
function peakOf(samples: Float32Array): number {
  let peak = 0;
  for (let i = 0; i < samples.length; i += 1) peak = Math.max(peak, Math.abs(samples[i]!));
  return peak;
}

/**
 * Parts that are low-passed anyway (basses, pads, strings, organ) are computed at a fraction of
 * the sample rate and interpolated up: the same sound for a half or a quarter of the work. The
 * filters then run at the full rate and take out what the interpolation leaves above them.
 */
function reduced(
  frames: number,
  rate: number,
  divisor: number,
  draw: (buffer: Float32Array, rate: number) => void,
): Float32Array {
  const low = new Float32Array(Math.ceil(frames / divisor) + 2);
  draw(low, rate / divisor);
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i += 1) {
    const x = i / divisor;
    const j = x | 0;
    out[i] = low[j]! + (x - j) * (low[j + 1]! - low[j]!);
  }
  return out;
}

/** One part's notes rendered into a mono buffer of `frames` samples. */
export function renderInstrument(
  name: InstrumentName,
  variant: string,
  events: readonly NoteEvent[],
  frames: number,
  options: InstrumentOptions,
): Float32Array {
  const { rate, brightness, weirdness } = options;
  let out: Float32Array = new Float32Array(frames);
  const random = seeded(hashOf(`${name}:${variant}`, options.seed));
  const detune = () => (random() * 2 - 1) * 35 * weirdness;
  const open = 0.5 + brightness;
  const tones = (spec: ToneSpec, divisor = 1) => {
    if (divisor === 1) renderTones(out, events, spec, rate, detune);
    else
      out = reduced(frames, rate, divisor, (buffer, reducedRate) =>
        renderTones(buffer, events, spec, reducedRate, detune),
      );
  };
  const chain = (...filters: Parameters<typeof biquad>[]) =>
    filterChain(
      out,
      filters.map((f) => biquad(...f)),
    );
  switch (name) {
    case 'piano': {
      const partials = variant === 'electric' ? ELECTRIC_PIANO : variant === 'muted' ? MUTED_PIANO : GRAND;
      const cutoff = variant === 'muted' ? 2200 : 4000 + 6000 * brightness;
      const decay = variant === 'muted' ? 0.7 : variant === 'electric' ? 1.4 : 1.8;
      out = reduced(frames, rate, 2, (buffer, reducedRate) =>
        renderStruck(buffer, events, partials, decay, reducedRate, 2 * cutoff),
      );
      chain(['highpass', 60, rate], ['lowpass', cutoff, rate]);
      break;
    }
    case 'guitar': {
      const electric = variant === 'electric';
      const bright = { acoustic: 0.8, electric: 0.55, clean: 0.6, nylon: 0.4 }[variant] ?? 0.6;
      renderPlucks(out, events, { brightness: bright, sustain: electric ? 4 : 2.4 }, rate, random);
      if (electric) {
        saturate(out, 5 / Math.max(1e-6, peakOf(out)));
        chain(
          ['highpass', 100, rate],
          ['lowpass', 2800 + 1500 * brightness, rate, 0.9],
          ['peaking', 800, rate, 1, 3],
        );
      } else if (variant === 'acoustic') {
        chain(['highpass', 80, rate], ['peaking', 220, rate, 1.2, 4], ['highshelf', 5000, rate, 0.7, 2]);
      } else chain(['highpass', 80, rate], ['lowpass', variant === 'nylon' ? 3500 : 5000, rate]);
      break;
    }
    case 'bass': {
      const spec = BASS_TONES[variant] ?? BASS_TONES.electric!;
      tones(spec, 4);
      if (variant === '808') saturate(out, 1.8 / Math.max(1e-6, peakOf(out)));
      const cutoff = variant === 'synth' ? 500 + 1500 * brightness : variant === '808' ? 900 : 1400;
      chain(['highpass', 30, rate], ['lowpass', cutoff, rate, variant === 'synth' ? 1.6 : 0.7]);
      break;
    }
    case 'pad': {
      const spread = 8 + 30 * weirdness;
      const cutoff = ({ warm: 1300, bright: 3200, dark: 700 }[variant] ?? 1300) * open;
      tones(
        { table: saw, voices: [-spread, 0, spread], attack: 0.5, decay: 1.5, sustain: 0.8, release: 0.9 },
        cutoff < 2000 ? 4 : 2,
      );
      chain(['lowpass', cutoff, rate, 0.7], ['lowpass', cutoff, rate, 0.7], ['highpass', 120, rate]);
      break;
    }
    case 'strings': {
      const solo = variant === 'solo';
      tones(
        {
          table: saw,
          voices: solo ? [0] : [-7, 0, 7],
          attack: solo ? 0.08 : 0.3,
          decay: 1,
          sustain: 0.85,
          release: 0.45,
          vibrato: { rate: 5.5, depth: solo ? 0.18 : 0.08, delay: 0.25 },
        },
        2,
      );
      chain(['highpass', 180, rate], ['lowpass', 3000 * open, rate], ['peaking', 2500, rate, 1, -3]);
      break;
    }
    case 'organ': {
      // Drawbars 16', 8', 5⅓', 4', 2⅔', 2': the table's fundamental is the sub-octave.
      const drawbars = harmonicTable([0.5, 1, 0.5, 0.45, 0, 0.25, 0, 0.25]);
      tones(
        {
          table: () => drawbars,
          voices: [0],
          attack: 0.008,
          decay: 10,
          sustain: 1,
          release: 0.05,
          ratio: 0.5,
        },
        2,
      );
      tremolo(out, 5.8, 0.12, rate);
      chain(['lowpass', 6000, rate], ['highpass', 60, rate]);
      break;
    }
    case 'bells':
      renderBells(out, events, { ratio: 3.5, index: 1.2, decay: 1.4 }, rate);
      chain(['highpass', 300, rate]);
      break;
    case 'lead': {
      const table = variant === 'square' ? square : saw;
      const vibrato = { rate: 5.5, depth: 0.12, delay: 0.25 };
      tones({
        table,
        voices: [-5, 5],
        attack: 0.01,
        decay: 0.3,
        sustain: 0.75,
        release: 0.12,
        vibrato,
        glide: 0.04,
      });
      chain(['lowpass', 1800 + 5000 * brightness, rate, 1], ['highpass', 150, rate]);
      break;
    }
    case 'brass': {
      const sax = variant === 'sax';
      tones({
        table: sax ? square : saw,
        dull: sax ? dullSquare : dullSaw,
        voices: variant === 'section' ? [-5, 5] : [0],
        attack: 0.045,
        decay: 0.4,
        sustain: 0.75,
        release: 0.12,
        vibrato: { rate: 5, depth: sax ? 0.15 : 0.06, delay: 0.3 },
      });
      chain(['highpass', 120, rate], ['lowpass', sax ? 3500 : 5500, rate]);
      break;
    }
    case 'flute': {
      const table = harmonicTable([1, 0.22, 0.1, 0.04]);
      tones({
        table: () => table,
        voices: [0],
        attack: 0.06,
        decay: 2,
        sustain: 0.85,
        release: 0.1,
        vibrato: { rate: 5, depth: 0.15, delay: 0.2 },
        breath: 0.05,
      });
      chain(['highpass', 250, rate], ['lowpass', 9000, rate]);
      break;
    }
  }
  return out;
}
