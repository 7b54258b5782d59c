/**
 * A part's notes, derived again from the plan at render time: each role (block chords,
 * arpeggios, strums, comping, stabs, counter-lines, bass patterns) turns each bar's chord into
 * timed notes, thinned out in quiet sections. The plan stays small, and a restyled plan gets
 * new figures over the same harmony.
 */
import { hashOf } from '../../random.js';
import type { PlanPart, SongPlan } from './song-plan.js';
import { secondsAt } from './grid.js';
import { chordIntervals, pc, type Quality } from './theory.js';
import type { NoteEvent } from '../synth/instruments.js';
import type { InstrumentName } from './vocabulary.js';

/** Where each instrument's chords and lines sit, as a MIDI note. */
const CENTRE: Record<InstrumentName, number> = {
  piano: 62,
  guitar: 57,
  bass: 38,
  pad: 62,
  strings: 67,
  organ: 60,
  bells: 76,
  lead: 72,
  brass: 64,
  flute: 77,
};

/** A hit within a bar: beat offset, length in beats, notes, velocity, and a strum's spread in seconds. */
type Hit = [offset: number, beats: number, notes: number[], velocity: number, strum?: number];

/** The note of a pitch class closest to `centre` (ties go up). */
const nearest = (pitchClass: number, centre: number) => {
  const below = centre - pc(centre - pitchClass);
  return centre - below > 6 ? below + 12 : below;
};

/** The note of a pitch class in the octave from `low` up. */
const above = (pitchClass: number, low: number) => low + pc(pitchClass - low);

/** Chord tones in a close voicing around `centre`. */
function voicing(root: number, quality: Quality, centre: number): number[] {
  return [...new Set(chordIntervals(quality).map((i) => nearest((root + i) % 12, centre)))].sort(
    (a, b) => a - b,
  );
}

/** A guitar's open-position shape: low root and fifth, then the chord an octave up. */
function guitarShape(root: number, quality: Quality): number[] {
  const [, third = 4, fifth = 7, seventh] = chordIntervals(quality);
  const low = above(root, 40);
  const bass = low > 47 ? low - 12 : low;
  return [bass, bass + fifth, bass + 12, bass + 12 + third, bass + 12 + (seventh ?? fifth)];
}

const SYNCOPATIONS = [
  [0, 1.5, 3],
  [0.5, 2, 3.5],
  [0, 2.5],
  [1, 2.5, 3.5],
];

function chordHits(
  part: PlanPart,
  root: number,
  quality: Quality,
  bar: number,
  beats: number,
  energy: number,
  seed: number,
): Hit[] {
  const centre = CENTRE[part.name];
  const chord = voicing(root, quality, centre);
  const quiet = energy < 0.45;
  const bass = nearest(root, centre - 12);
  switch (part.role) {
    case 'whole':
      return [[0, beats, chord, 0.7]];
    case 'pulse': {
      const step = quiet ? 2 : 1;
      const hits: Hit[] = [];
      for (let b = 0; b < beats; b += step) hits.push([b, step * 0.9, chord, b === 0 ? 0.8 : 0.6]);
      if (part.name === 'piano') hits.push([0, beats, [bass], 0.6]);
      return hits;
    }
    case 'arpeggio': {
      const line = [bass, ...chord, chord[0]! + 12, ...[...chord].reverse()];
      return Array.from({ length: beats * 2 }, (_, i): Hit => [
        i / 2,
        1.5,
        [line[i % line.length]!],
        i === 0 ? 0.65 : 0.5,
      ]);
    }
    case 'syncopated': {
      const pattern = SYNCOPATIONS[hashOf(`${part.name}:${bar % 2}`, seed) % SYNCOPATIONS.length]!.filter(
        (b) => b < beats,
      );
      return pattern.map((b, i): Hit => [b, ((pattern[i + 1] ?? beats) - b) * 0.8, chord, 0.6]);
    }
    case 'offbeat':
      return Array.from({ length: beats }, (_, b): Hit => [b + 0.5, 0.3, chord, 0.6]);
    case 'strum': {
      const shape = guitarShape(root, quality);
      const pattern: [number, 'down' | 'up'][] = quiet
        ? [
            [0, 'down'],
            [2, 'down'],
          ]
        : [
            [0, 'down'],
            [1, 'down'],
            [1.5, 'up'],
            [2.5, 'up'],
            [3, 'down'],
            [3.5, 'up'],
          ];
      const valid = pattern.filter(([b]) => b < beats);
      return valid.map(([b, way], i): Hit => {
        const length = (valid[i + 1]?.[0] ?? beats) - b;
        return way === 'down'
          ? [b, length, shape, 0.7, 0.012]
          : [b, length, shape.slice(2).reverse(), 0.45, 0.01];
      });
    }
    case 'picking': {
      const shape = guitarShape(root, quality);
      const high = shape.slice(2);
      const hits: Hit[] = [];
      for (let b = 0; b < beats; b += 1) {
        hits.push([b, 2, [b % 2 === 0 ? shape[0]! : shape[1]!], 0.6]);
        hits.push([b + 0.5, 1, [high[b % high.length]!], 0.45]);
      }
      return hits;
    }
    case 'power': {
      const low = above(root, 40);
      const power = [low, low + 7, low + 12];
      if (energy >= 0.8) return [0, 2].filter((b) => b < beats).map((b): Hit => [b, 2, power, 0.8, 0.006]);
      return Array.from({ length: beats * 2 }, (_, i): Hit => [
        i / 2,
        0.3,
        power,
        i % 2 === 0 ? 0.7 : 0.55,
        0.004,
      ]);
    }
    case 'chops': {
      const top = voicing(root, quality, 67).slice(-3);
      return [0.5, 1.25, 1.5, 2.5, 3.25, 3.5]
        .filter((b) => b < beats)
        .map((b): Hit => [b, 0.15, top, 0.6, 0.004]);
    }
    case 'arp': {
      const line = [...chord, ...chord.map((n) => n + 12)];
      const step = energy >= 0.85 ? 0.25 : 0.5;
      return Array.from({ length: beats / step }, (_, i): Hit => [
        i * step,
        step * 0.9,
        [line[i % line.length]!],
        0.5,
      ]);
    }
    case 'stabs': {
      const at = bar % 2 === 0 ? [0, 1.5] : [0.5, 2.5, 3];
      return at.filter((b) => b < beats).map((b): Hit => [b, 0.5, chord, 0.75]);
    }
    case 'counter':
      return [[0, beats - 0.25, [chord[chord.length - 1]!], 0.5]];
    default:
      return bassHits(part, root, quality, beats, energy);
  }
}

function bassHits(
  part: PlanPart,
  root: number,
  quality: Quality,
  beats: number,
  energy: number,
  next = root,
): Hit[] {
  const low = part.variant === '808' ? 26 : 31;
  const r = above(root, low);
  const [, third = 4, fifth = 7] = chordIntervals(quality);
  const five = r + fifth <= 50 ? r + fifth : r + fifth - 12;
  const quietRole = energy < 0.45 ? 'root' : part.role;
  const hits = (list: [number, number, number][]): Hit[] =>
    list.filter(([b]) => b < beats).map(([b, length, midi]) => [b, length, [midi], b % 1 === 0 ? 0.85 : 0.7]);
  switch (quietRole) {
    case 'eighths':
      return hits(Array.from({ length: beats * 2 }, (_, i) => [i / 2, 0.45, r]));
    case 'rootfifth':
      return hits(
        beats === 3
          ? [
              [0, 1, r],
              [1, 1, five],
              [2, 1, five],
            ]
          : [
              [0, 1.5, r],
              [2, 1.5, five],
            ],
      );
    case 'walking': {
      const target = above(next, low);
      // A chromatic step into the next bar's root, from the side the line is on.
      const approach = target + (r + third > target ? 1 : -1);
      return hits(
        beats === 3
          ? [
              [0, 1, r],
              [1, 1, r + third],
              [2, 1, approach],
            ]
          : [
              [0, 1, r],
              [1, 1, r + third],
              [2, 1, five],
              [3, 1, approach],
            ],
      );
    }
    case 'funk':
      return hits([
        [0, 0.4, r],
        [0.75, 0.2, r],
        [1.5, 0.25, r + 12],
        [2, 0.4, r],
        [2.75, 0.2, five],
        [3.5, 0.25, r + 12],
      ]);
    case 'sub':
      return hits([
        [0, 2.4, r],
        [2.5, 1.4, r],
      ]);
    case 'octaves':
      return hits(Array.from({ length: beats * 2 }, (_, i) => [i / 2, 0.4, i % 2 === 0 ? r : r + 12]));
    case 'offbeat':
      return hits(Array.from({ length: beats }, (_, b) => [b + 0.5, 0.4, r]));
    case 'reggae':
      return hits([
        [0, 1, r],
        [1.5, 0.5, r],
        [2, 0.5, r + third],
        [3, 1, five],
      ]);
    default:
      return hits(
        energy >= 0.6
          ? [
              [0, 2, r],
              [2, 2, r],
            ]
          : [[0, beats, r]],
      );
  }
}

/** Every note a part plays over the song, with the melody notes nobody sings if it is the melody part. */
export function partEvents(plan: SongPlan, part: PlanPart): NoteEvent[] {
  const bpb = plan.beatsPerBar;
  const events: NoteEvent[] = [];
  const played = part.name === plan.melodyPart ? plan.melody.filter((n) => n.text === null) : [];
  const melodyBars = new Set(played.map((n) => Math.floor(n.beat / bpb)));
  const chords = plan.chords;
  const sectionOf = (bar: number) =>
    plan.sections.find((s) => bar >= s.bar && bar < s.bar + s.bars) ??
    plan.sections[plan.sections.length - 1];
  for (let bar = 0; bar < plan.bars; bar += 1) {
    const chord = chords[Math.min(bar, chords.length - 1)];
    const section = sectionOf(bar);
    if (!chord || !section || section.energy < part.enter || melodyBars.has(bar)) continue;
    const next = chords[bar + 1] ?? chord;
    const energy = section.energy;
    const ending = plan.ending && bar === plan.bars - 1;
    const hits: Hit[] = ending
      ? [
          [
            0,
            bpb * 1.5,
            part.name === 'bass'
              ? [above(chord.root, 31)]
              : voicing(chord.root, chord.quality, CENTRE[part.name]),
            0.7,
          ],
        ]
      : part.name === 'bass'
        ? bassHits(part, chord.root, chord.quality, bpb, energy, next.root)
        : chordHits(part, chord.root, chord.quality, bar, bpb, energy, plan.seed);
    const loud = 0.75 + 0.35 * energy;
    for (const [offset, beats, notes, velocity, strum = 0] of hits) {
      const beat = bar * bpb + offset;
      const start = secondsAt(plan, beat);
      const duration = secondsAt(plan, beat + beats) - start;
      notes.forEach((midi, i) =>
        events.push({ start: start + i * strum, duration, midi, velocity: velocity * loud }),
      );
    }
  }
  for (const note of played)
    events.push({ start: note.start, duration: note.duration, midi: note.midi, velocity: 0.75 });
  return events.sort((a, b) => a.start - b.start);
}
