/**
 * The instruments of the band, played from the General MIDI soundfont (general-midi.ts gives
 * each instrument and variant its program; fluidsynth.ts plays them). Each note takes a MIDI
 * channel of its own in turn, so that weirdness can detune every note a little with the pitch
 * wheel without bending the others; brightness opens a gentle low-pass over the part.
 */
import { biquad, filter } from '../dsp/biquad.js';
import { hashOf, seeded } from '../../random.js';
import type { InstrumentName } from '../compose/vocabulary.js';
import { play } from './fluidsynth.js';
import { programOf } from './general-midi.js';
import type { MidiEvent } from './midi-file.js';

export interface InstrumentOptions {
  rate: number;
  seed: number;
  /** 0..1: filter openness. */
  brightness: number;
  /** 0..1: per-note detuning. */
  weirdness: number;
}

/** A note of a part: when, how long, which key, how hard (0..1). */
export interface NoteEvent {
  start: number;
  duration: number;
  midi: number;
  velocity: number;
}

/** What a part is: its instrument, the instrument's variant, and the figure it plays. */
export interface PartSound {
  name: InstrumentName;
  variant: string;
  role?: string;
}

/** Channels a part's notes take in turn; 10 (index 9) is the percussion channel. */
const CHANNELS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15];
/** The General MIDI pitch wheel spans ±2 semitones: 8192 steps a 200 cents. */
const WHEEL_CENTRE = 8192;
const WHEEL_PER_CENT = 8192 / 200;

/** One part's notes rendered into a mono buffer of `frames` samples. */
export async function renderInstrument(
  part: PartSound,
  events: readonly NoteEvent[],
  frames: number,
  options: InstrumentOptions,
): Promise<Float32Array> {
  const { rate, weirdness, brightness } = options;
  const random = seeded(hashOf(`${part.name}:${part.variant}`, options.seed));
  const program = programOf(part.name, part.variant, part.role);
  const midi: MidiEvent[] = CHANNELS.map((channel) => ({ seconds: 0, type: 'program', channel, program }));
  events.forEach((event, index) => {
    const channel = CHANNELS[index % CHANNELS.length]!;
    const cents = (random() * 2 - 1) * 35 * weirdness;
    midi.push(
      { seconds: event.start, type: 'bend', channel, value: WHEEL_CENTRE + cents * WHEEL_PER_CENT },
      { seconds: event.start, type: 'on', channel, key: event.midi, velocity: event.velocity * 127 },
      { seconds: event.start + event.duration, type: 'off', channel, key: event.midi },
    );
  });
  const { left, right } = await play({ kit: false, program }, midi, frames, rate);
  // The part is placed in the stereo field by the mix (render-song.ts): its own image is folded.
  for (let i = 0; i < frames; i += 1) left[i] = 0.5 * (left[i]! + right[i]!);
  return filter(left, biquad('lowpass', 4000 + 12000 * brightness, rate, 0.6));
}
