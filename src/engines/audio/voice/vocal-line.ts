/**
 * Who sings a plan's vocal line. Festival, when every sung word is written in Latin letters: its
 * English voice says them (other Latin-script languages with an English accent), and a listener
 * can follow the words. Any word in another script (Chinese, Japanese, Cyrillic, …) leaves the
 * whole song to the formant singer, which sings any syllable as vowels and consonants but whose
 * words cannot be made out: one voice for the whole song rather than two.
 */
import type { SongPlan } from '../compose/plan.js';
import { singWithFestival } from './festival-singer.js';
import { sing, type SungNote } from './singer.js';
import { festivalSpelling } from './spelling.js';
import { sungWords } from './sung-words.js';

/** The plan's vocal line, `frames` samples of mono at `rate`. */
export async function singVocalLine(plan: SongPlan, frames: number, rate: number): Promise<Float32Array> {
  const notes: SungNote[] = plan.melody.flatMap((n) =>
    n.text === null ? [] : [{ start: n.start, duration: n.duration, midi: n.midi, text: n.text }],
  );
  const words = sungWords(
    notes,
    plan.sections.flatMap((s) => s.lines),
  ).map((word) => ({ spelling: festivalSpelling(word.text), notes: word.notes }));
  if (words.length > 0 && words.every((w) => w.spelling !== null))
    return singWithFestival(
      words.map((w) => ({ spelling: w.spelling!, notes: w.notes })),
      plan.voice,
      plan.bpm,
      frames,
      rate,
    );
  return sing(notes, plan.voice, frames, rate, plan.seed);
}
