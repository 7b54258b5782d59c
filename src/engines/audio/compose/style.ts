/**
 * Free-text style words ("sad piano ballad in D minor, 70 bpm") read into a style profile: the
 * tempo, key, groove, harmony and band a song is planned with. Words named in the negative style
 * are kept out; `influence` weighs the stated words against the seed's own choices.
 */
import { hashOf, pick, seeded, type Random } from '../../random.js';
import type { Harmony, Mode } from './theory.js';
import { GENRES, type Genre } from './genres/index.js';
import {
  DRUM_WORDS,
  INSTRUMENTAL_WORDS,
  INSTRUMENTS,
  MOODS,
  TEMPOS,
  VOCAL_WORDS,
  type DrumPattern,
  type InstrumentName,
  type Kit,
  type PartChoice,
} from './vocabulary.js';

export interface StyleRequest {
  style: string;
  negative?: string;
  /** 0..1: at 1 the stated words decide everything they name; lower lets the seed add and vary. */
  influence?: number;
  /** 0..1: chromatic chords and notes, odd leaps and rhythms, detuned timbres. */
  weirdness?: number;
}

export interface StyleProfile {
  genre: string;
  moods: string[];
  bpm: number;
  root: number;
  mode: Mode;
  beatsPerBar: number;
  swing: number;
  harmony: Harmony;
  /** 0..1: how open the filters are. */
  brightness: number;
  /** 0..1: how busy and loud the arrangement is. */
  energy: number;
  weirdness: number;
  parts: PartChoice[];
  drums: { pattern: DrumPattern; kit: Kit } | null;
  vocals: boolean;
}

type Kind = 'genre' | 'mood' | 'tempo' | 'instrument' | 'drums' | 'vocals' | 'instrumental';

interface Entry {
  phrase: string;
  kind: Kind;
  index: number;
}

interface Found extends Entry {
  at: number;
  negated: boolean;
}

const ENTRIES: Entry[] = [
  ...GENRES.flatMap((genre, index) =>
    genre.words.map((phrase) => ({ phrase, kind: 'genre' as const, index })),
  ),
  ...MOODS.flatMap((mood, index) => mood.words.map((phrase) => ({ phrase, kind: 'mood' as const, index }))),
  ...TEMPOS.flatMap((tempo, index) =>
    tempo.words.map((phrase) => ({ phrase, kind: 'tempo' as const, index })),
  ),
  ...INSTRUMENTS.flatMap((word, index) =>
    word.words.map((phrase) => ({ phrase, kind: 'instrument' as const, index })),
  ),
  ...DRUM_WORDS.map((phrase) => ({ phrase, kind: 'drums' as const, index: 0 })),
  ...VOCAL_WORDS.map((phrase) => ({ phrase, kind: 'vocals' as const, index: 0 })),
  ...INSTRUMENTAL_WORDS.map((phrase) => ({ phrase, kind: 'instrumental' as const, index: 0 })),
].sort((a, b) => b.phrase.length - a.phrase.length);

/** Bare instrument names take the genre's own variant and role; specific ones ("electric guitar") keep theirs. */
const BARE = new Set([
  'piano',
  'pianos',
  'keys',
  'keyboard',
  'guitar',
  'guitars',
  'bass',
  'synth',
  'synths',
  'synthesizer',
]);

const NEGATION = /(?:^|\s)(?:no|without|minus|zero|sans|not|non)\s+$/;

/** Lower case, punctuation to spaces; a slash survives only inside a time signature. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/(?<!\d)\/|\/(?!\d)/g, ' ')
    .replace(/[^\p{L}\p{N}&/]+/gu, ' ')
    .trim();
}

function scan(text: string): Found[] {
  const padded = ` ${normalise(text)} `;
  const taken = new Uint8Array(padded.length);
  const found: Found[] = [];
  for (const entry of ENTRIES) {
    const needle = ` ${entry.phrase} `;
    for (let at = padded.indexOf(needle); at >= 0; at = padded.indexOf(needle, at + 1)) {
      if (taken.subarray(at + 1, at + needle.length - 1).some((t) => t === 1)) continue;
      taken.fill(1, at + 1, at + needle.length - 1);
      found.push({ ...entry, at, negated: NEGATION.test(padded.slice(0, at + 1)) });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

const BPM = /(\d{2,3}(?:\.\d+)?)\s*bpm\b|\bbpm\s*[:=]?\s*(\d{2,3})\b|\btempo\s*(?:of\s*)?(\d{2,3})\b/i;
const KEY =
  /(\b(?:in|key\s+of)\s+(?:the\s+key\s+of\s+)?)?\b([a-g])\s*(#|♯|b|♭|\s+sharp|\s+flat)?\s*[- ]?\s*(major|minor|maj|min|dorian|mixolydian)\b/i;
const BARE_KEY = /\b(?:in|key\s+of)\s+([A-G])(#|♯|b|♭)?(?![\w#♯♭])/;
const METER = /(?:^|\s)(3\/4|6\/8|12\/8)(?:\s|$)|\bwaltz\b/i;
const LETTERS: Record<string, number> = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };

function keyIn(text: string): { root: number; mode?: Mode; phrase: string } | null {
  const full = KEY.exec(text);
  // "a minor change" is an article; a key needs "in"/"key of" or a capital letter.
  if (full && (full[1] || full[2] !== full[2]!.toLowerCase())) {
    const accidental = (full[3] ?? '').trim();
    const shift = /^(#|♯|sharp)$/.test(accidental) ? 1 : /^(b|♭|flat)$/.test(accidental) ? -1 : 0;
    const word = full[4]!.toLowerCase();
    const mode: Mode = word.startsWith('min')
      ? 'minor'
      : word === 'dorian'
        ? 'dorian'
        : word === 'mixolydian'
          ? 'mixolydian'
          : 'major';
    return { root: (LETTERS[full[2]!.toLowerCase()]! + shift + 12) % 12, mode, phrase: full[0].trim() };
  }
  const bare = BARE_KEY.exec(text);
  if (!bare) return null;
  const shift = bare[2] === '#' || bare[2] === '♯' ? 1 : bare[2] ? -1 : 0;
  return { root: (LETTERS[bare[1]!.toLowerCase()]! + shift + 12) % 12, phrase: bare[0].trim() };
}

/** The style words found in free text, in the order they appear (tempo and key phrases included). */
export function styleWords(text: string): string[] {
  const words = scan(text).map((found) => ({ at: found.at, phrase: found.phrase }));
  const bpm = BPM.exec(text);
  if (bpm) words.push({ at: bpm.index, phrase: bpm[0].trim().toLowerCase() });
  const key = keyIn(text);
  if (key) words.push({ at: text.indexOf(key.phrase), phrase: key.phrase });
  return words.sort((a, b) => a.at - b.at).map((word) => word.phrase);
}

const DEFAULT_GENRES: Record<'any' | 'calm' | 'lively' | 'sad', string[]> = {
  any: ['pop', 'folk', 'lofi', 'rnb', 'synthwave', 'rock', 'ballad', 'house'],
  calm: ['lofi', 'ambient', 'folk', 'ballad', 'rnb'],
  lively: ['pop', 'edm', 'rock', 'funk', 'disco', 'synthwave'],
  sad: ['ballad', 'folk', 'lofi', 'ambient', 'rnb'],
};

function chooseGenre(
  found: Found[],
  banned: Set<string>,
  energy: number,
  sad: boolean,
  random: Random,
): Genre {
  const stated = found.filter((f) => f.kind === 'genre' && !f.negated).map((f) => GENRES[f.index]!);
  const allowed = (genre: Genre) => !banned.has(genre.name);
  // A ballad with another genre ("rock ballad") is that genre at a ballad's pace.
  const primary = stated.find((g) => g.name !== 'ballad' && allowed(g)) ?? stated.find(allowed);
  if (primary) return primary;
  const pool = sad
    ? DEFAULT_GENRES.sad
    : energy > 0.6
      ? DEFAULT_GENRES.lively
      : energy < 0.4
        ? DEFAULT_GENRES.calm
        : DEFAULT_GENRES.any;
  const names = pool.filter((name) => !banned.has(name));
  const others = GENRES.filter(allowed);
  if (names.length === 0) return others.length > 0 ? pick(random, others) : GENRES[0]!;
  const name = pick(random, names);
  return GENRES.find((g) => g.name === name)!;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** At most this many instruments besides drums and voice: more muddies the mix and slows rendering. */
const MAX_PARTS = 6;

export function readStyle(request: StyleRequest, seed: number): StyleProfile {
  const influence = clamp(request.influence ?? 0.5, 0, 1);
  const weirdness = clamp(request.weirdness ?? 0, 0, 1);
  const random = seeded(hashOf(request.style, seed));
  const found = scan(request.style);
  const against = scan(request.negative ?? '');
  const negatives = [...against, ...found.filter((f) => f.negated)];
  const positives = found.filter((f) => !f.negated);

  const bannedGenres = new Set(negatives.filter((f) => f.kind === 'genre').map((f) => GENRES[f.index]!.name));
  const bannedMoods = new Set(negatives.filter((f) => f.kind === 'mood').map((f) => f.index));
  const bannedInstruments = new Set<InstrumentName>(
    negatives.filter((f) => f.kind === 'instrument').map((f) => INSTRUMENTS[f.index]!.choice.name),
  );
  const noDrums = negatives.some((f) => f.kind === 'drums');

  const moods = positives
    .filter((f) => f.kind === 'mood' && !bannedMoods.has(f.index))
    .map((f) => MOODS[f.index]!);
  const moodEnergy = moods.reduce((sum, mood) => sum + mood.energy, 0);
  const sad = moods.some((mood) => mood.mode === 'minor' && mood.tempo < 0);
  const genre = chooseGenre(positives, bannedGenres, 0.5 + moodEnergy, sad, random);
  const ballad = positives.some((f) => f.kind === 'genre' && GENRES[f.index]!.name === 'ballad');

  // Tempo: an explicit bpm, else a tempo word's range, else the genre's, pushed by moods.
  const tempoWord = positives.find((f) => f.kind === 'tempo');
  const range = tempoWord
    ? TEMPOS[tempoWord.index]!.tempo
    : ballad
      ? GENRES.find((g) => g.name === 'ballad')!.tempo
      : genre.tempo;
  const push = moods.reduce((sum, mood) => sum + mood.tempo, 0) * (tempoWord ? 0.3 : 1);
  const spread = (range[1] - range[0]) * (1 - influence);
  let bpm = (range[0] + range[1]) / 2 + push + (random() * 2 - 1) * spread;
  const explicit = BPM.exec(request.style);
  if (explicit) {
    const stated = Number(explicit[1] ?? explicit[2] ?? explicit[3]);
    bpm = stated * (1 + (random() * 2 - 1) * 0.12 * Math.max(0, 0.5 - influence));
  }
  bpm = Math.round(clamp(bpm, 48, 200));

  // Key and mode: stated key first, then the moods' vote, then the genre's habit.
  const key = keyIn(request.style);
  const avoidMinor = negatives.some((f) => f.kind === 'mood' && MOODS[f.index]!.mode === 'minor');
  const avoidMajor = negatives.some((f) => f.kind === 'mood' && MOODS[f.index]!.mode === 'major');
  const vote = moods.reduce(
    (sum, mood) => sum + (mood.mode === 'minor' ? 1 : mood.mode === 'major' ? -1 : 0),
    0,
  );
  const genreModes = genre.modes.filter(
    (m) => !(avoidMinor && m === 'minor') && !(avoidMajor && m === 'major'),
  );
  let mode: Mode =
    influence > 0.8
      ? (genreModes[0] ?? 'major')
      : pick(random, genreModes.length > 0 ? genreModes : genre.modes);
  if (vote !== 0 && random() < 0.6 + 0.8 * influence) mode = vote > 0 ? 'minor' : 'major';
  if (avoidMinor && mode === 'minor') mode = 'major';
  if (avoidMajor && mode === 'major') mode = 'minor';
  if (key?.mode) mode = key.mode;
  const root = key ? key.root : Math.floor(random() * 12);
  const beatsPerBar = METER.test(request.style) || genre.name === 'waltz' ? 3 : 4;

  const parts = chooseParts(genre, positives, moods, bannedInstruments, influence, random);

  const statedDrums = positives.some((f) => f.kind === 'drums');
  let drums = genre.drums;
  if (ballad && drums) drums = { pattern: beatsPerBar === 3 ? 'waltz' : 'ballad', kit: drums.kit };
  if (!drums && statedDrums) drums = { pattern: beatsPerBar === 3 ? 'waltz' : 'ballad', kit: 'acoustic' };
  if (drums && beatsPerBar === 3) drums = { pattern: 'waltz', kit: drums.kit };
  if (noDrums) drums = null;

  const vocals =
    !positives.some((f) => f.kind === 'instrumental') &&
    !negatives.some((f) => f.kind === 'vocals' || f.kind === 'instrumental');

  return {
    genre: genre.name,
    moods: moods.map((mood) => mood.words[0]!),
    bpm,
    root,
    mode,
    beatsPerBar,
    swing: genre.swing,
    harmony: genre.harmony,
    brightness: clamp(genre.brightness + moods.reduce((sum, mood) => sum + mood.brightness, 0), 0.1, 0.95),
    energy: clamp(0.5 + moodEnergy + (ballad ? -0.2 : 0), 0.1, 1),
    weirdness,
    parts,
    drums,
    vocals,
  };
}

function chooseParts(
  genre: Genre,
  positives: Found[],
  moods: { adds?: PartChoice[] }[],
  banned: Set<InstrumentName>,
  influence: number,
  random: Random,
): PartChoice[] {
  const chosen: PartChoice[] = [];
  const add = (choice: PartChoice) => {
    if (banned.has(choice.name) || chosen.some((c) => c.name === choice.name) || chosen.length >= MAX_PARTS)
      return;
    chosen.push(choice);
  };
  const band = [...genre.core, ...genre.extra];
  for (const f of positives.filter((f) => f.kind === 'instrument')) {
    const stated = INSTRUMENTS[f.index]!.choice;
    const own = band.find((c) => c.name === stated.name);
    add({ ...(own && BARE.has(f.phrase) ? own : stated), stated: true });
  }
  for (const choice of genre.core) add(choice);
  for (const mood of moods)
    for (const choice of mood.adds ?? []) if (random() < 0.5 + 0.5 * influence) add(choice);
  // The seed's own additions: none when the words rule, up to two when they barely count.
  const extras = Math.floor(random() * (1 - influence) * 3);
  const pool = genre.extra.filter((c) => !chosen.some((p) => p.name === c.name));
  for (let i = 0; i < extras && pool.length > 0; i += 1)
    add(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return chosen;
}
