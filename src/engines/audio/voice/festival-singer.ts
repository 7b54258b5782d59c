/**
 * English words sung by Festival, placed on the song's grid. The line is cut into phrases where
 * the melody rests; each phrase is sung by Festival on its own (singing-xml.ts, festival.ts) and
 * then fitted to the span the composition gives it: Festival keeps the durations it is given to
 * within a few hundredths of a second, so a phrase is stretched (WSOLA, which keeps the pitch)
 * only when it misses by more than 1%, and otherwise cut or padded. Festival's pitch is the
 * written note itself, so nothing is retuned.
 *
 * The voice is CMU's male diphone voice "kal". A female voice (or any other vocal tract) is
 * made from it by singing everything `formantScale` times slower and lower, then playing it back
 * that much faster: timing and pitch come back, and the formants rise by that factor.
 */
import { resampled, timeStretch } from '../dsp/stretch.js';
import { singAll, type SingingJob, type Sung } from './festival.js';
import { singingXml, type PhraseWord } from './singing-xml.js';
import type { Voice } from './singer.js';

/** A rest at least this long between two words ends a phrase. */
const PHRASE_GAP = 0.3;
/** A phrase this close to its span is cut or padded, not stretched. */
const STRETCH_TOLERANCE = 0.01;
/** Fades at a phrase's ends, against clicks where Festival's wave is cut. */
const EDGE_SECONDS = 0.004;

interface Phrase {
  words: PhraseWord[];
  start: number;
  end: number;
}

function phrasesOf(words: readonly PhraseWord[]): Phrase[] {
  const phrases: Phrase[] = [];
  for (const word of words) {
    const first = word.notes[0]!;
    const last = word.notes[word.notes.length - 1]!;
    const current = phrases.at(-1);
    if (current && first.start - current.end < PHRASE_GAP) {
      current.words.push(word);
      current.end = Math.max(current.end, last.start + last.duration);
    } else {
      phrases.push({ words: [word], start: first.start, end: last.start + last.duration });
    }
  }
  return phrases;
}

/**
 * A sung phrase at `rate`, exactly `length` long: played `scale` times faster, then stretched
 * when far off, else cut or padded.
 */
function fitted(sung: Sung, scale: number, length: number, rate: number): Float32Array {
  const step = (sung.rate * scale) / rate;
  const samples = resampled(sung.samples, step, Math.floor(sung.samples.length / step));
  const ratio = length / Math.max(1, samples.length);
  const source =
    Math.abs(ratio - 1) > STRETCH_TOLERANCE
      ? timeStretch({ rate, channels: [samples] }, ratio).channels[0]!
      : samples;
  const out = new Float32Array(length);
  out.set(source.subarray(0, length));
  const edge = Math.min(length >> 1, Math.round(EDGE_SECONDS * rate));
  for (let i = 0; i < edge; i += 1) {
    out[i]! *= i / edge;
    out[length - 1 - i]! *= i / edge;
  }
  return out;
}

/**
 * The sung line, `frames` samples at `rate`: `words` (spelled for Festival, in time order) at
 * the song's `bpm`, in `voice`'s vocal tract.
 */
export async function singWithFestival(
  words: readonly PhraseWord[],
  voice: Voice,
  bpm: number,
  frames: number,
  rate: number,
): Promise<Float32Array> {
  const scale = voice.formantScale;
  const phrases = phrasesOf(words.filter((w) => w.notes.length > 0)).filter((p) => p.start * rate < frames);
  const jobs: SingingJob[] = phrases.map((phrase) => ({
    xml: singingXml(phrase.words, bpm, scale),
    seconds: phrase.end - phrase.start,
  }));
  const sung = await singAll(jobs);
  const out = new Float32Array(frames);
  phrases.forEach((phrase, i) => {
    const from = Math.round(phrase.start * rate);
    const length = Math.round(phrase.end * rate) - from;
    if (length <= 0) return;
    // Fitted whole, then cut where the song ends.
    out.set(fitted(sung[i]!, scale, length, rate).subarray(0, frames - from), from);
  });
  return out;
}
