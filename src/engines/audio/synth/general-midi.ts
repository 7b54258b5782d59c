/**
 * The band in General MIDI terms: each instrument and variant the arranger chooses is a program
 * of the soundfont (numbered from 0, as MIDI sends them), and each drum of a groove a key of the
 * percussion channel in one of the soundfont's kits. docs/music.md lists them per genre.
 */
import type { InstrumentName, Kit } from '../compose/vocabulary.js';

const PROGRAMS: Record<InstrumentName, Record<string, number> & { default: number }> = {
  piano: { default: 0, grand: 0, electric: 4, muted: 0 },
  guitar: { default: 25, acoustic: 25, nylon: 24, clean: 27, electric: 29 },
  bass: { default: 33, electric: 33, upright: 32, synth: 38, '808': 39 },
  pad: { default: 89, warm: 89, bright: 90, dark: 94 },
  strings: { default: 48, ensemble: 48, solo: 40 },
  organ: { default: 16, drawbar: 16 },
  bells: { default: 8, glass: 8 },
  lead: { default: 81, saw: 81, square: 80 },
  brass: { default: 61, section: 61, sax: 65, trumpet: 56 },
  flute: { default: 73, concert: 73 },
};

const DISTORTION_GUITAR = 30;

/** The program a part plays; a power-chord guitar is the distortion guitar. */
export function programOf(name: InstrumentName, variant: string, role?: string): number {
  if (name === 'guitar' && role === 'power') return DISTORTION_GUITAR;
  const programs = PROGRAMS[name];
  return programs[variant] ?? programs.default;
}

/** The soundfont's drum kits (programs of the percussion bank). */
export const KITS: Record<Kit, number> = { acoustic: 0, electronic: 24, '808': 25, lofi: 8, brush: 40 };

/**
 * Every preset the band can play, melodic programs and kits: `make build` writes a soundfont file
 * for each (scripts/soundfont.mjs), and a part loads only its own.
 */
export function playedPresets(): { melodic: number[]; kits: number[] } {
  const melodic = new Set([
    DISTORTION_GUITAR,
    ...Object.values(PROGRAMS).flatMap((programs) => Object.values(programs)),
  ]);
  return {
    melodic: [...melodic].sort((a, b) => a - b),
    kits: [...new Set(Object.values(KITS))].sort((a, b) => a - b),
  };
}

export type Drum =
  'kick' | 'snare' | 'clap' | 'hat' | 'open' | 'ride' | 'crash' | 'rim' | 'tomHigh' | 'tomLow';

/** General MIDI percussion keys. */
export const DRUM_KEYS: Record<Drum, number> = {
  kick: 36,
  snare: 38,
  clap: 39,
  hat: 42,
  open: 46,
  ride: 51,
  crash: 49,
  rim: 37,
  tomHigh: 48,
  tomLow: 45,
};
