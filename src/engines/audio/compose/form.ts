/**
 * Song form in bars: how many bars each section takes (from its lines and syllables), the form
 * an instrumental piece gets, and how a form is fitted to a length — sections dropped or cut at
 * a line's bar, or repeated without words to fill a window.
 */
import type { Random } from '../../random.js';
import type { LyricSection } from './lyrics.js';
import type { SectionKind } from './theory.js';

export interface FormLine {
  text: string;
  syllables: string[];
  /** First bar of the line, counted from the start of its section. */
  bar: number;
  bars: number;
}

export interface FormSection {
  name: string;
  kind: SectionKind;
  bars: number;
  lines: FormLine[];
  /** 0..1: how full the arrangement is here. */
  energy: number;
}

const ENERGY: Record<SectionKind, number> = {
  intro: 0.35,
  verse: 0.55,
  prechorus: 0.68,
  chorus: 0.9,
  hook: 0.85,
  bridge: 0.62,
  instrumental: 0.8,
  outro: 0.4,
  other: 0.6,
};

const EMPTY_BARS: Record<SectionKind, number> = {
  intro: 4,
  verse: 4,
  prechorus: 2,
  chorus: 4,
  hook: 4,
  bridge: 4,
  instrumental: 8,
  outro: 4,
  other: 4,
};

/** Two bars a line, four when its syllables would not fit in two at one syllable an eighth note. */
function lineBars(syllableCount: number, beatsPerBar: number): number {
  return syllableCount <= 4 * beatsPerBar - 2 ? 2 : 4;
}

/** The sections of a lyric in bars; `styleEnergy` (0..1) lifts or lowers every section. */
export function layoutSections(
  lyric: readonly LyricSection[],
  beatsPerBar: number,
  styleEnergy: number,
): FormSection[] {
  return lyric.map((section) => {
    let bar = 0;
    const lines = section.lines.map((line) => {
      const bars = lineBars(line.syllables.length, beatsPerBar);
      const laid = { text: line.text, syllables: line.syllables, bar, bars };
      bar += bars;
      return laid;
    });
    const bars = lines.length === 0 ? EMPTY_BARS[section.kind] : bar + (bar % 2);
    return {
      name: section.name,
      kind: section.kind,
      bars,
      lines,
      energy: energyOf(section.kind, styleEnergy),
    };
  });
}

export function energyOf(kind: SectionKind, styleEnergy: number): number {
  return Math.min(1, Math.max(0.15, ENERGY[kind] * (0.6 + 0.8 * styleEnergy)));
}

/** A form for a piece without words: the melody is played instead of sung. */
export function instrumentalForm(random: Random, styleEnergy: number): FormSection[] {
  const names: [string, SectionKind, number][] = [
    ['Intro', 'intro', 4],
    ['Verse', 'verse', 8],
    ['Chorus', 'chorus', 8],
    ['Verse 2', 'verse', 8],
    ['Chorus', 'chorus', 8],
  ];
  if (random() < 0.6) names.push(['Bridge', 'bridge', 8], ['Chorus', 'chorus', 8]);
  names.push(['Outro', 'outro', 4]);
  return names.map(([name, kind, bars]) => ({
    name,
    kind,
    bars,
    lines: [],
    energy: energyOf(kind, styleEnergy),
  }));
}

function cut(section: FormSection, bars: number): FormSection {
  return { ...section, bars, lines: section.lines.filter((line) => line.bar + line.bars <= bars) };
}

/**
 * The form shortened to at most `maxBars`: intro and outro shrink first, then instrumental
 * breaks go, then the form is cut after the last section (or line) that fits.
 */
export function shorten(form: readonly FormSection[], maxBars: number): FormSection[] {
  const total = (f: readonly FormSection[]) => f.reduce((sum, s) => sum + s.bars, 0);
  let sections = form.map((s) => ({ ...s }));
  if (total(sections) <= maxBars) return sections;
  sections = sections.map((s) =>
    (s.kind === 'intro' || s.kind === 'outro') && s.lines.length === 0 ? cut(s, Math.min(s.bars, 2)) : s,
  );
  if (total(sections) > maxBars) sections = sections.filter((s, i) => i === 0 || s.kind !== 'instrumental');
  const kept: FormSection[] = [];
  let used = 0;
  for (const section of sections) {
    const room = maxBars - used;
    if (room <= 0) break;
    const part = section.bars <= room ? section : cut(section, room);
    kept.push(part);
    used += part.bars;
  }
  return kept;
}

/** Exactly `bars` bars: cut, or filled by repeating the form's sections without their words. */
export function fill(form: readonly FormSection[], bars: number): FormSection[] {
  const sections = shorten(form, bars);
  const body = form.filter((s) => s.kind !== 'intro' && s.kind !== 'outro');
  const source = body.length > 0 ? body : form;
  let used = sections.reduce((sum, s) => sum + s.bars, 0);
  for (let i = 0; used < bars; i += 1) {
    const next = source[i % Math.max(1, source.length)];
    const add = Math.min(bars - used, next?.bars ?? bars);
    sections.push(
      next
        ? { ...cut(next, add), lines: [] }
        : { name: 'Verse', kind: 'verse', bars: add, lines: [], energy: 0.5 },
    );
    used += add;
  }
  return sections;
}
