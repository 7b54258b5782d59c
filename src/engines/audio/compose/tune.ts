/**
 * The melody of a whole song: each sung line written to its syllables (the same kind of line
 * getting the same tune), instrumental sections given a played motif, or a given melody taken
 * as it is; then everything sung moved by octaves into the voice's range.
 */
import { hashOf } from '../../random.js';
import type { PlanPart, SongSpec } from './song-plan.js';
import type { Voice } from '../voice/singer.js';
import type { BarChord, Frame } from './chords.js';
import { melodyPartOf } from './band.js';
import { energyOf, type FormSection } from './form.js';
import { playLine, singLine, type MelodyKey, type MelodyNote } from './melody.js';
import type { SectionKind } from './theory.js';
import type { InstrumentName } from './vocabulary.js';

/** The MIDI note of the key's tonic nearest `centre`. */
const tonicNear = (root: number, centre: number) => root + 12 * Math.round((centre - root) / 12);
const voiceMidi = (voice: Voice) => 69 + 12 * Math.log2(voice.registerHz / 440);

/** Melody register by the instrument that plays it. */
const PLAYED_CENTRE: Partial<Record<InstrumentName, number>> = {
  flute: 76,
  bells: 76,
  lead: 72,
  brass: 67,
  guitar: 67,
};

/**
 * Every melody note of the song, on beats from the first bar line: sung notes carry their
 * syllable, played ones (instrumental sections, or all of an instrumental piece) carry null.
 */
export function writeMelody(
  frame: Frame,
  form: FormSection[],
  chords: BarChord[],
  voice: Voice,
  sung: boolean,
  seed: number,
  given: SongSpec['melody'] | null,
  parts: PlanPart[],
): MelodyNote[] {
  const chordAt = (beat: number) =>
    chords[Math.max(0, Math.min(chords.length - 1, Math.floor(beat / frame.beatsPerBar)))]!;
  const key = (centre: number): MelodyKey => ({
    ...frame,
    tonic: tonicNear(frame.root, centre - 4),
    chordAt,
  });
  const singing = key(voiceMidi(voice));
  const playing = key(PLAYED_CENTRE[melodyPartOf(parts) ?? 'piano'] ?? 70);
  const totalBeats = chords.length * frame.beatsPerBar;
  let notes: MelodyNote[] = [];
  if (given) {
    const words = form.flatMap((s) => s.lines.flatMap((line) => line.syllables));
    notes = given
      .filter((n) => n.beat >= 0 && n.beat < totalBeats && n.beats > 0)
      .sort((a, b) => a.beat - b.beat)
      .map((n, i) => ({
        beat: n.beat,
        beats: n.beats,
        midi: Math.round(n.midi),
        text: sung ? (words[i] ?? '') : null,
      }));
    if (sung && words.length > notes.length && notes.length > 0) {
      notes[notes.length - 1]!.text = words.slice(notes.length - 1).join(' ');
    }
  } else {
    let bar = 0;
    for (const section of form) {
      const beat = bar * frame.beatsPerBar;
      section.lines.forEach((line, i) => {
        const motif = hashOf(`${section.kind}:${i % 4}`, seed);
        const last = i === section.lines.length - 1;
        notes.push(
          ...singLine(
            singing,
            line.syllables,
            beat + line.bar * frame.beatsPerBar,
            line.bars,
            motif,
            section.kind,
            last,
          ),
        );
      });
      const played = sung
        ? section.kind === 'instrumental'
        : section.kind !== 'intro' && section.kind !== 'outro';
      if (played && section.lines.length === 0) {
        const perBar = 2 + Math.round(section.energy * 3);
        notes.push(
          ...playLine(
            playing,
            beat,
            section.bars,
            perBar,
            hashOf(`${section.kind}:play`, seed),
            section.kind,
          ),
        );
      }
      bar += section.bars;
    }
  }
  // Octaves only: the tune keeps its pitch classes and sits where the voice (or instrument) is
  // comfortable; the rare note that strays past the range folds back by an octave.
  const place = (subset: MelodyNote[], centre: number) => {
    if (subset.length === 0) return;
    const sorted = subset.map((n) => n.midi).sort((a, b) => a - b);
    const shift = 12 * Math.round((centre - sorted[Math.floor(sorted.length / 2)]!) / 12);
    for (const note of subset) {
      note.midi += shift;
      while (note.midi < centre - 8) note.midi += 12;
      while (note.midi > centre + 10) note.midi -= 12;
    }
  };
  place(
    notes.filter((n) => n.text !== null),
    voiceMidi(voice),
  );
  if (given)
    place(
      notes.filter((n) => n.text === null),
      playing.tonic + 4,
    );
  return notes.filter((n) => n.beat < totalBeats);
}

/** A form that spans a given melody: the lyric's sections if there are words, else eight-bar sections. */
export function melodyForm(
  lyricForm: FormSection[],
  melody: NonNullable<SongSpec['melody']>,
  beatsPerBar: number,
  energy: number,
  sung: boolean,
): FormSection[] {
  const end = Math.max(...melody.map((n) => n.beat + n.beats));
  const bars = Math.max(1, Math.ceil(end / beatsPerBar - 1e-9));
  if (sung) {
    const lines = lyricForm.flatMap((s) => s.lines).map((line) => ({ ...line, bar: 0, bars }));
    const first = lyricForm[0]!;
    return [{ name: first.name, kind: first.kind, bars, lines, energy: first.energy }];
  }
  const out: FormSection[] = [];
  for (let bar = 0, i = 0; bar < bars; bar += 8, i += 1) {
    const kind: SectionKind = i % 2 === 0 ? 'verse' : 'chorus';
    out.push({
      name: i % 2 === 0 ? 'Verse' : 'Chorus',
      kind,
      bars: Math.min(8, bars - bar),
      lines: [],
      energy: energyOf(kind, energy),
    });
  }
  return out;
}
