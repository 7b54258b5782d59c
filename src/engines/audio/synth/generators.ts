/**
 * The sound generators the instruments are made of: wavetable oscillators with an envelope,
 * vibrato and glide (pads, strings, organ, leads, brass, flute, most basses), Karplus–Strong
 * plucked strings (guitars), struck strings as exponentially decaying partials (pianos) and
 * two-operator FM (bells). Each adds its notes into a mono buffer; none allocates per sample.
 */
import { SINE, TABLE_SIZE } from './wavetable.js';
import type { Random } from '../../random.js';
import { hz as frequencyOf } from '../compose/theory.js';

export interface NoteEvent {
  start: number;
  duration: number;
  midi: number;
  /** 0..1. */
  velocity: number;
}

/** Sample span of a note: where it starts in the buffer and how many samples it rings. */
function span(out: Float32Array, event: NoteEvent, tail: number, rate: number) {
  const at = Math.round(event.start * rate);
  const off = Math.max(1, Math.round(event.duration * rate));
  const length = Math.min(off + Math.round(tail * rate), out.length - at);
  return { at, off, length, from: Math.max(0, -at) };
}

export interface ToneSpec {
  table: (hz: number, rate: number) => Float32Array;
  /** A duller table crossfaded in as the note's level falls: brass brightens as it swells. */
  dull?: (hz: number, rate: number) => Float32Array;
  /** Detune of each stacked oscillator, in cents. */
  voices: readonly number[];
  attack: number;
  /** Time constant of the fall from the peak to the sustain level, in seconds. */
  decay: number;
  sustain: number;
  /** Seconds from the note's end to silence (-60 dB). */
  release: number;
  vibrato?: { rate: number; depth: number; delay: number };
  /** Legato glide time constant, for one-note-at-a-time leads. */
  glide?: number;
  breath?: number;
  /** Table fundamental relative to the note (0.5 when the table holds a sub-octave drawbar). */
  ratio?: number;
}

export function renderTones(
  out: Float32Array,
  events: readonly NoteEvent[],
  spec: ToneSpec,
  rate: number,
  detune: () => number,
): void {
  const voices = spec.voices.length;
  const phases = new Float64Array(voices);
  const increments = new Float64Array(voices);
  const decayCoef = Math.exp(-1 / (spec.decay * rate));
  const releaseCoef = 10 ** (-3 / (spec.release * rate));
  const vibratoStep = ((spec.vibrato?.rate ?? 0) * TABLE_SIZE) / rate;
  const vibratoDepth = spec.vibrato ? 2 ** (spec.vibrato.depth / 12) - 1 : 0;
  const vibratoDelay = Math.round((spec.vibrato?.delay ?? 0) * rate);
  const vibratoRamp = 1 / (0.3 * rate);
  const glideCoef = spec.glide ? Math.exp(-1 / (spec.glide * rate)) : 0;
  let noise = 0x2545f491;
  let previous: NoteEvent | null = null;
  for (const event of events) {
    const hz = frequencyOf(event.midi) * 2 ** (detune() / 1200) * (spec.ratio ?? 1);
    const { at, off, length, from } = span(out, event, spec.release, rate);
    const legato =
      previous !== null &&
      spec.glide !== undefined &&
      previous.start + previous.duration >= event.start - 0.03;
    let glide = legato ? frequencyOf(previous!.midi) / frequencyOf(event.midi) : 1;
    previous = event;
    if (length <= 0) continue;
    const bright = spec.table(hz, rate);
    const dull = spec.dull?.(hz, rate);
    for (let v = 0; v < voices; v += 1) {
      phases[v] = ((v * 0.618 + event.midi * 0.137) % 1) * TABLE_SIZE;
      increments[v] = (hz * 2 ** (spec.voices[v]! / 1200) * TABLE_SIZE) / rate;
    }
    const attack = Math.max(1, Math.round(spec.attack * rate));
    const gain = event.velocity / Math.sqrt(voices);
    let decay = 1;
    let release = 1;
    let lfo = 0;
    let depth = 0;
    for (let n = 0; n < length; n += 1) {
      let amp = n < attack ? n / attack : spec.sustain + (1 - spec.sustain) * decay;
      if (n >= attack) decay *= decayCoef;
      if (n >= off) {
        release *= releaseCoef;
        amp *= release;
      }
      if (n > vibratoDelay && depth < vibratoDepth)
        depth = Math.min(vibratoDepth, depth + vibratoDepth * vibratoRamp);
      lfo += vibratoStep;
      if (lfo >= TABLE_SIZE) lfo -= TABLE_SIZE;
      glide = 1 + (glide - 1) * glideCoef;
      const bend = (1 + depth * SINE[lfo | 0]!) * glide;
      const mix = dull ? Math.min(1, amp * 1.3) : 1;
      let sample = 0;
      for (let v = 0; v < voices; v += 1) {
        const p = phases[v]!;
        const j = p | 0;
        const f = p - j;
        const b = bright[j]! + f * (bright[j + 1]! - bright[j]!);
        sample += dull ? b * mix + (dull[j]! + f * (dull[j + 1]! - dull[j]!)) * (1 - mix) : b;
        let next = p + increments[v]! * bend;
        if (next >= TABLE_SIZE) next -= TABLE_SIZE;
        phases[v] = next;
      }
      if (spec.breath) {
        noise = (Math.imul(noise, 1664525) + 1013904223) | 0;
        sample += (noise / 2147483648) * spec.breath;
      }
      if (n >= from) out[at + n]! += sample * amp * gain;
    }
  }
}

export interface PluckSpec {
  /** 0..1: how bright the pick's noise burst is. */
  brightness: number;
  /** Seconds to -60 dB while the string is held. */
  sustain: number;
}

/** Karplus–Strong with an all-pass for the fractional part of the period, so every pitch is in tune. */
export function renderPlucks(
  out: Float32Array,
  events: readonly NoteEvent[],
  spec: PluckSpec,
  rate: number,
  random: Random,
): void {
  for (const event of events) {
    const hz = frequencyOf(event.midi);
    const { at, off, length, from } = span(out, event, 0.12, rate);
    if (length <= 0) continue;
    const period = rate / hz;
    const size = Math.max(2, Math.floor(period - 0.5));
    const fraction = period - 0.5 - size;
    const c = (1 - fraction) / (1 + fraction);
    const line = new Float32Array(size);
    const smooth = 0.15 + 0.8 * spec.brightness * (0.5 + 0.5 * event.velocity);
    let y = 0;
    let mean = 0;
    for (let i = 0; i < size; i += 1) {
      y += smooth * (random() * 2 - 1 - y);
      line[i] = y;
      mean += y / size;
    }
    for (let i = 0; i < size; i += 1) line[i]! -= mean;
    const held = 10 ** (-3 / (spec.sustain * hz));
    const damped = 10 ** (-3 / (0.1 * hz));
    let index = 0;
    let last = 0;
    let apIn = 0;
    let apOut = 0;
    const gain = event.velocity;
    for (let n = 0; n < length; n += 1) {
      const current = line[index]!;
      const averaged = 0.5 * (current + last) * (n < off ? held : damped);
      last = current;
      apOut = c * averaged + apIn - c * apOut;
      apIn = averaged;
      line[index] = apOut;
      index = index + 1 === size ? 0 : index + 1;
      if (n >= from) out[at + n]! += current * gain;
    }
  }
}

export interface Partial {
  /** Frequency relative to the fundamental. */
  ratio: number;
  amplitude: number;
  /** Decay time relative to the fundamental's. */
  decay: number;
}

/**
 * Struck strings: each partial a damped sinusoid by the two-term recurrence
 * y[n] = 2r·cos(w)·y[n-1] − r²·y[n-2]; a damper shortens them all when the key is let go.
 */
export function renderStruck(
  out: Float32Array,
  events: readonly NoteEvent[],
  partials: readonly Partial[],
  decayAtC4: number,
  rate: number,
  /** Partials above this are left out: the part's filter would take them away anyway. */
  highest = 0.45 * rate,
): void {
  const damper = Math.exp(-1 / (0.07 * rate));
  for (const event of events) {
    const hz = frequencyOf(event.midi);
    const tau = decayAtC4 * 2 ** (-(event.midi - 60) / 24);
    const { at, off, length: full, from } = span(out, event, 0.3, rate);
    const length = Math.min(full, Math.round(5 * tau * rate));
    for (const partial of partials) {
      const f = hz * partial.ratio;
      if (f > Math.min(highest, 0.45 * rate) || partial.amplitude < 0.01) continue;
      const w = (2 * Math.PI * f) / rate;
      const r = Math.exp(-1 / (tau * partial.decay * rate));
      let a1 = 2 * r * Math.cos(w);
      let a2 = -r * r;
      let y2 = 0;
      let y1 = partial.amplitude * event.velocity * r * Math.sin(w);
      if (from === 0 && at + 1 < out.length) out[at + 1]! += y1;
      for (let n = 2; n < length; n += 1) {
        if (n === off) {
          a1 = 2 * damper * Math.cos(w);
          a2 = -damper * damper;
        }
        const y = a1 * y1 + a2 * y2;
        y2 = y1;
        y1 = y;
        if (n >= from) out[at + n]! += y;
      }
    }
  }
}

export interface BellSpec {
  ratio: number;
  index: number;
  /** Seconds, time constant of the ring at C4. */
  decay: number;
}

/** Two-operator FM: an inharmonic modulator whose depth dies away faster than the tone. */
export function renderBells(
  out: Float32Array,
  events: readonly NoteEvent[],
  spec: BellSpec,
  rate: number,
): void {
  const scale = TABLE_SIZE / (2 * Math.PI);
  for (const event of events) {
    const hz = frequencyOf(event.midi);
    const tau = spec.decay * 2 ** (-(event.midi - 60) / 36);
    const { at, length, from } = span(out, event, Math.min(1.2, 4 * tau), rate);
    const ringCoef = Math.exp(-1 / (tau * rate));
    const indexCoef = Math.exp(-1 / (0.35 * tau * rate));
    const carrierStep = (hz * TABLE_SIZE) / rate;
    const modulatorStep = carrierStep * spec.ratio;
    const attack = Math.round(0.002 * rate);
    let carrier = 0;
    let modulator = 0;
    let ring = event.velocity;
    let index = spec.index * scale;
    for (let n = 0; n < length; n += 1) {
      const m = SINE[modulator | 0]! * index;
      let p = (carrier + m) % TABLE_SIZE;
      if (p < 0) p += TABLE_SIZE;
      const sample = SINE[p | 0]! * ring * (n < attack ? n / attack : 1);
      if (n >= from) out[at + n]! += sample;
      carrier += carrierStep;
      if (carrier >= TABLE_SIZE) carrier -= TABLE_SIZE;
      modulator += modulatorStep;
      if (modulator >= TABLE_SIZE) modulator -= TABLE_SIZE;
      ring *= ringCoef;
      index *= indexCoef;
    }
  }
}
