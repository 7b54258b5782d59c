/**
 * A sung voice by formant synthesis: a band-limited glottal pulse train at exactly each note's
 * pitch (with delayed vibrato, a little jitter and breath) through five vocal-tract resonators
 * that move from vowel to vowel, with consonants as noise bursts, hisses and nasal or liquid
 * murmurs around them. Notes closer than a breath are sung legato with a glide; longer gaps
 * take a breath. Mono: the caller puts it in the centre.
 */
import { biquad, filter } from '../dsp/biquad.js';
import { fft } from '../../signal/index.js';
import { SAMPLE_RATE } from '../dsp/pcm.js';
import { hashOf, seeded } from '../../random.js';
import { hz as frequencyOf } from '../compose/theory.js';
import { formantsOf, syllableOf, type Consonant, type Formants, type VowelName } from './phonemes.js';

export interface Voice {
  gender: 'f' | 'm';
  /** Median pitch of the sung melody, in Hz. */
  registerHz: number;
  /** Multiplies every formant: about 1.15 for a female vocal tract. */
  formantScale: number;
  vibratoRate: number;
  /** Vibrato depth in semitones. */
  vibratoDepth: number;
  /** 0..1: breath noise in the tone and a softer, steeper spectrum. */
  breathiness: number;
}

export interface SungNote {
  start: number;
  duration: number;
  midi: number;
  /** The syllable; empty for a note that carries on the previous vowel. */
  text: string;
}

export function voiceFor(gender: 'f' | 'm' | undefined, seed: number): Voice {
  const random = seeded(hashOf('voice', seed));
  const chosen = gender ?? (random() < 0.5 ? 'f' : 'm');
  const female = chosen === 'f';
  return {
    gender: chosen,
    registerHz: female ? 220 + random() * 110 : 110 + random() * 55,
    formantScale: female ? 1.12 + random() * 0.06 : 0.96 + random() * 0.06,
    vibratoRate: 5 + random(),
    vibratoDepth: 0.18 + random() * 0.14,
    breathiness: (female ? 0.15 : 0.08) + random() * 0.22,
  };
}

/** Control values change every block of samples; the tone itself is computed per sample. */
const BLOCK = 32;
const TABLE = 2048;
const LOWEST = 50;
const BANDS = 7;
const BANDWIDTHS = [70, 95, 130, 170, 230];

/** Glottal pulse tables, one per octave of pitch so no harmonic passes the Nyquist frequency. */
function glottalTables(rate: number, tilt: number): Float32Array[] {
  return Array.from({ length: BANDS }, (_, band) => {
    const harmonics = Math.min(TABLE / 2 - 1, Math.floor((0.45 * rate) / (LOWEST * 2 ** (band + 1))));
    const re = new Float64Array(TABLE);
    const im = new Float64Array(TABLE);
    for (let k = 1; k <= harmonics; k += 1) {
      re[k] = k ** -tilt;
      re[TABLE - k] = re[k]!;
    }
    fft(re, im, true);
    let peak = 0;
    for (let i = 0; i < TABLE; i += 1) peak = Math.max(peak, Math.abs(re[i]!));
    const table = new Float32Array(TABLE + 1);
    for (let i = 0; i < TABLE; i += 1) table[i] = re[i]! / peak;
    table[TABLE] = table[0]!;
    return table;
  });
}

interface Controls {
  f0: Float32Array;
  jump: Uint8Array;
  amp: Float32Array;
  asp: Float32Array;
  vibrato: Float32Array;
  formants: Float32Array[];
}

interface NoiseEvent {
  at: number;
  duration: number;
  centre: number;
  q: number;
  level: number;
}

export function sing(
  notes: readonly SungNote[],
  voice: Voice,
  frames: number,
  rate = SAMPLE_RATE,
  seed = 0,
): Float32Array {
  const blocks = Math.ceil(frames / BLOCK) + 1;
  const controls: Controls = {
    f0: new Float32Array(blocks),
    jump: new Uint8Array(blocks),
    amp: new Float32Array(blocks),
    asp: new Float32Array(blocks),
    vibrato: new Float32Array(blocks),
    formants: Array.from({ length: 5 }, (_, k) => new Float32Array(blocks).fill(formantsOf('ə')[k]!)),
  };
  const events: NoiseEvent[] = [];
  const sorted = [...notes].filter((n) => n.duration > 0).sort((a, b) => a.start - b.start);
  let vowel: VowelName = 'ə';
  sorted.forEach((note, i) => {
    const previous = sorted[i - 1];
    const gap = previous ? note.start - (previous.start + previous.duration) : Infinity;
    if (gap > 0.45) events.push({ at: note.start - 0.32, duration: 0.26, centre: 1500, q: 0.7, level: 0.06 });
    const syllable =
      note.text === '' ? { onset: [], vowels: [vowel] as [VowelName], coda: [] } : syllableOf(note.text);
    vowel = syllable.vowels[syllable.vowels.length - 1]!;
    shapeNote(controls, events, note, syllable, gap < 0.06, voice, rate);
  });
  holdPitch(controls.f0);
  const out = new Float32Array(frames);
  voiceTone(out, controls, voice, rate, seed);
  addNoises(out, events, voice, rate, seed);
  return out;
}

/** Fills the control blocks a note covers: consonants, then the vowel (gliding to a diphthong's end), then the coda. */
function shapeNote(
  c: Controls,
  events: NoiseEvent[],
  note: SungNote,
  syllable: { onset: Consonant[]; vowels: VowelName[]; coda: Consonant[] },
  legato: boolean,
  voice: Voice,
  rate: number,
): void {
  const hz = frequencyOf(note.midi);
  const total = (list: Consonant[]) => list.reduce((sum, k) => sum + k.duration, 0);
  const onsetScale = Math.min(1, (0.4 * note.duration) / Math.max(1e-6, total(syllable.onset)));
  const codaScale = Math.min(1, (0.25 * note.duration) / Math.max(1e-6, total(syllable.coda)));
  const onsetEnd = total(syllable.onset) * onsetScale;
  const codaStart = note.duration - total(syllable.coda) * codaScale;
  const first = formantsOf(syllable.vowels[0]!);
  const second = formantsOf(syllable.vowels[syllable.vowels.length - 1]!);
  const diphthongAt = onsetEnd + 0.6 * (codaStart - onsetEnd);
  const from = Math.max(0, Math.floor((note.start * rate) / BLOCK));
  const to = Math.min(c.f0.length, Math.ceil(((note.start + note.duration) * rate) / BLOCK));
  const place = (list: Consonant[], offset: number, scale: number, release: boolean) => {
    let at = offset;
    for (const k of list) {
      const d = k.duration * scale;
      if (k.kind === 'fricative')
        events.push({ at: note.start + at, duration: d, centre: k.centre, q: k.q, level: k.level });
      if (k.kind === 'plosive') {
        const level = release ? k.level * 0.5 : k.level;
        events.push({ at: note.start + at + 0.7 * d, duration: 0.018, centre: k.centre, q: 0.8, level });
      }
      at += d;
    }
  };
  place(syllable.onset, 0, onsetScale, false);
  place(syllable.coda, codaStart, codaScale, true);
  const consonantAt = (list: Consonant[], t: number, scale: number): { k: Consonant; x: number } | null => {
    let at = 0;
    for (const k of list) {
      const d = k.duration * scale;
      if (t < at + d) return { k, x: (t - at) / d };
      at += d;
    }
    return null;
  };
  for (let b = from; b < to; b += 1) {
    const t = (b * BLOCK) / rate - note.start;
    c.f0[b] = hz;
    c.jump[b] = b === from && !legato ? 1 : 0;
    c.vibrato[b] = note.duration > 0.35 ? voice.vibratoDepth * Math.min(1, Math.max(0, (t - 0.18) / 0.3)) : 0;
    let shape: Formants = t > diphthongAt ? second : first;
    let amp = 1;
    let asp = 0;
    const inOnset = t < onsetEnd ? consonantAt(syllable.onset, t, onsetScale) : null;
    const inCoda = t >= codaStart ? consonantAt(syllable.coda, t - codaStart, codaScale) : null;
    const held = inOnset ?? inCoda;
    if (held) {
      const { k, x } = held;
      if (k.formants) shape = k.formants;
      if (k.kind === 'nasal') amp = 0.45;
      else if (k.kind === 'liquid') amp = 0.7;
      else if (k.kind === 'aspirate') [amp, asp] = [0, k.level];
      else if (k.kind === 'fricative') amp = k.voiced ? 0.25 : 0;
      else if (k.kind === 'plosive')
        [amp, asp] = x < 0.7 ? [k.voiced ? 0.12 : 0, 0] : [k.voiced ? 0.5 : 0, k.voiced ? 0 : 0.35];
    }
    c.amp[b] = amp;
    c.asp[b] = asp;
    for (let f = 0; f < 5; f += 1) c.formants[f]![b] = shape[f]!;
  }
}

/** Between notes the pitch holds its last value, so releases and breaths keep their pitch. */
function holdPitch(f0: Float32Array): void {
  let last = 0;
  for (let b = 0; b < f0.length; b += 1) {
    if (f0[b]! > 0) last = f0[b]!;
    else f0[b] = last;
  }
  const first = f0.find((v) => v > 0) ?? 220;
  for (let b = 0; b < f0.length && f0[b] === 0; b += 1) f0[b] = first;
}

/** The voiced path: glottal source plus breath through the formant cascade, per sample. */
function voiceTone(out: Float32Array, c: Controls, voice: Voice, rate: number, seed: number): void {
  const tables = glottalTables(rate, 1 + 0.6 * voice.breathiness);
  const blockSeconds = BLOCK / rate;
  const smooth = (tau: number) => 1 - Math.exp(-blockSeconds / tau);
  const [kAttack, kRelease, kFormant, kPitch, kAsp] = [
    smooth(0.012),
    smooth(0.04),
    smooth(0.018),
    smooth(0.02),
    smooth(0.008),
  ];
  const state = new Float64Array(10);
  const coef = new Float64Array(15);
  const formant = new Float64Array(5);
  for (let f = 0; f < 5; f += 1) formant[f] = c.formants[f]![0]!;
  let logF = Math.log(c.f0[0]!);
  let amp = 0;
  let asp = 0;
  let phase = 0;
  let jitter = 0;
  let noise = hashOf('breath', seed) | 0;
  const breath = 0.35 * voice.breathiness;
  const random = seeded(hashOf('jitter', seed));
  for (let b = 0, i = 0; i < out.length; b += 1) {
    const target = Math.log(c.f0[b]!);
    logF = c.jump[b] || amp < 0.01 ? target : logF + kPitch * (target - logF);
    const ampTarget = c.amp[b]!;
    const ampFrom = amp;
    amp += (ampTarget > amp ? kAttack : kRelease) * (ampTarget - amp);
    asp += kAsp * (c.asp[b]! - asp);
    jitter = 0.97 * jitter + 0.0006 * (random() - 0.5);
    const time = b * blockSeconds;
    const hz =
      Math.exp(logF) *
      2 ** ((c.vibrato[b]! * Math.sin(2 * Math.PI * voice.vibratoRate * time)) / 12) *
      (1 + jitter);
    const increment = hz / rate;
    const band = Math.max(0, Math.min(BANDS - 1, Math.floor(Math.log2(hz / LOWEST))));
    const table = tables[band]!;
    for (let f = 0; f < 5; f += 1) {
      formant[f]! += kFormant * (c.formants[f]![b]! - formant[f]!);
      // Sopranos lift the first formant above the pitch so the fundamental is not lost.
      const frequency =
        f === 0 ? Math.max(formant[0]! * voice.formantScale, hz * 1.1) : formant[f]! * voice.formantScale;
      const bandwidth = BANDWIDTHS[f]! * (1 + 0.4 * voice.breathiness);
      const r = Math.exp((-Math.PI * bandwidth) / rate);
      const b1 = 2 * r * Math.cos((2 * Math.PI * Math.min(frequency, rate * 0.45)) / rate);
      const b2 = -r * r;
      coef[3 * f] = 1 - b1 - b2;
      coef[3 * f + 1] = b1;
      coef[3 * f + 2] = b2;
    }
    const end = Math.min(out.length, i + BLOCK);
    const step = (amp - ampFrom) / BLOCK;
    let a = ampFrom;
    for (; i < end; i += 1) {
      phase += increment;
      if (phase >= 1) phase -= 1;
      const x = phase * TABLE;
      const j = x | 0;
      const source = table[j]! + (x - j) * (table[j + 1]! - table[j]!);
      noise = (Math.imul(noise, 1664525) + 1013904223) | 0;
      a += step;
      let s = source * a + (noise / 2147483648) * (asp + breath * a);
      for (let f = 0; f < 5; f += 1) {
        const y = coef[3 * f]! * s + coef[3 * f + 1]! * state[2 * f]! + coef[3 * f + 2]! * state[2 * f + 1]!;
        state[2 * f + 1] = state[2 * f]!;
        state[2 * f] = y;
        s = y;
      }
      out[i] = s;
    }
  }
}

/** Hisses, bursts and breaths: band-passed noise scaled to the level of the sung tone. */
function addNoises(out: Float32Array, events: NoiseEvent[], voice: Voice, rate: number, seed: number): void {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < out.length; i += 1) {
    const v = out[i]!;
    if (v !== 0) {
      sum += v * v;
      count += 1;
    }
  }
  const toneRms = count > 0 ? Math.sqrt(sum / count) : 0;
  if (toneRms === 0) return;
  const random = seeded(hashOf('consonants', seed));
  for (const event of events) {
    const length = Math.round(event.duration * rate);
    const offset = Math.round(event.at * rate);
    if (length <= 0 || offset >= out.length || offset + length <= 0) continue;
    const segment = new Float32Array(length);
    const rise = Math.max(1, Math.round(0.012 * rate));
    for (let i = 0; i < length; i += 1) {
      const envelope = Math.min(1, i / rise) * Math.min(1, (length - i) / rise);
      segment[i] = (random() * 2 - 1) * envelope;
    }
    filter(segment, biquad('bandpass', event.centre * Math.sqrt(voice.formantScale), rate, event.q));
    let energy = 0;
    for (let i = 0; i < length; i += 1) energy += segment[i]! * segment[i]!;
    const gain = (event.level * toneRms * 0.6) / Math.max(1e-9, Math.sqrt(energy / length));
    const from = Math.max(0, -offset);
    const to = Math.min(length, out.length - offset);
    for (let i = from; i < to; i += 1) out[offset + i]! += gain * segment[i]!;
  }
}
