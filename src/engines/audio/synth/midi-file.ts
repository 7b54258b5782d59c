/**
 * Standard MIDI Files (format 0, one track) from timed events, for the soundfont player. Time is
 * written in milliseconds: a quarter note of 1000 ticks at 60 beats a minute, whatever the song's
 * tempo, since the song plan already gives every event in seconds.
 */

/** A channel message at `seconds`: note on and off, program change, controller, pitch wheel. */
export type MidiEvent =
  | { seconds: number; type: 'on'; channel: number; key: number; velocity: number }
  | { seconds: number; type: 'off'; channel: number; key: number }
  | { seconds: number; type: 'program'; channel: number; program: number }
  | { seconds: number; type: 'control'; channel: number; controller: number; value: number }
  | { seconds: number; type: 'bend'; channel: number; value: number };

const TICKS_PER_QUARTER = 1000;
const MICROSECONDS_PER_QUARTER = 1_000_000;
/** At the same tick, what a later note needs is sent first, and offs before ons. */
const ORDER = { program: 0, control: 1, bend: 2, off: 3, on: 4 } as const;

const byte = (value: number) => Math.max(0, Math.min(127, Math.round(value)));

function variableLength(value: number): number[] {
  const bytes = [value & 0x7f];
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) bytes.unshift((rest & 0x7f) | 0x80);
  return bytes;
}

function message(event: MidiEvent): number[] {
  const channel = event.channel & 0x0f;
  switch (event.type) {
    case 'on':
      return [0x90 | channel, byte(event.key), Math.max(1, byte(event.velocity))];
    case 'off':
      return [0x80 | channel, byte(event.key), 0];
    case 'program':
      return [0xc0 | channel, byte(event.program)];
    case 'control':
      return [0xb0 | channel, byte(event.controller), byte(event.value)];
    case 'bend': {
      const value = Math.max(0, Math.min(16383, Math.round(event.value)));
      return [0xe0 | channel, value & 0x7f, value >> 7];
    }
  }
}

/** The file, its track ending at `seconds` (so that the player renders every note's release). */
export function midiFile(events: readonly MidiEvent[], seconds: number): Uint8Array {
  const sorted = events
    .map((event, index) => ({ event, index, tick: Math.max(0, Math.round(event.seconds * 1000)) }))
    .sort((a, b) => a.tick - b.tick || ORDER[a.event.type] - ORDER[b.event.type] || a.index - b.index);
  const tempo = MICROSECONDS_PER_QUARTER;
  const track: number[] = [0, 0xff, 0x51, 3, tempo >> 16, (tempo >> 8) & 0xff, tempo & 0xff];
  let last = 0;
  for (const { event, tick } of sorted) {
    track.push(...variableLength(tick - last), ...message(event));
    last = tick;
  }
  const end = Math.max(last, Math.round(seconds * 1000));
  // Every channel silenced at the end (all sound off, all notes off): a voice left sounding, a
  // looped sample whose note was cut short, would otherwise keep the renderer going for ever.
  track.push(...variableLength(end - last));
  for (let channel = 0; channel < 16; channel += 1)
    track.push(...(channel === 0 ? [] : [0]), 0xb0 | channel, 120, 0, 0, 0xb0 | channel, 123, 0);
  track.push(0, 0xff, 0x2f, 0);
  const header = [
    0x4d,
    0x54,
    0x68,
    0x64,
    0,
    0,
    0,
    6,
    0,
    0,
    0,
    1,
    TICKS_PER_QUARTER >> 8,
    TICKS_PER_QUARTER & 0xff,
  ];
  const length = track.length;
  const chunk = [
    0x4d,
    0x54,
    0x72,
    0x6b,
    length >>> 24,
    (length >>> 16) & 0xff,
    (length >>> 8) & 0xff,
    length & 0xff,
  ];
  return Uint8Array.from([...header, ...chunk, ...track]);
}
