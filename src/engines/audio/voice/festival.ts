/**
 * Festival (Debian's `festival`, with the diphone voice `festvox-kallpc16k` and the CMU and POS
 * lexicons) sings SINGING documents into waves. One Festival process renders several phrases in
 * turn, because starting one (loading the voice and lexicons, about 0.2 s) costs more than
 * singing a phrase; a song's phrases are shared among as many processes as there are cores, and
 * no more than that run at once in this thread. Each process is stopped if it outlives a
 * generous bound.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { withTemp } from '../../media-tools.js';

export const FESTIVAL_PACKAGES = 'festival festvox-kallpc16k festlex-cmu festlex-poslex';

/** What the engine needs to sing words is not installed: the message names the Debian packages. */
export class VoiceMissing extends Error {}

/**
 * Festival's singing mode (singing-mode.scm), with four changes.
 *
 * Phone lengths: a sung syllable's phones take their average lengths in speech (vowels take what
 * a long note leaves, all shrink alike in a short one). Singing mode looks the averages up in a
 * table kal lacks, so every phone was 80 ms; kal's own are used, with consonants at twice their
 * spoken length (sung diction: a fast line no longer squeezes them to a few milliseconds). On
 * bench/music-realism.mjs that raised the share of words pocketsphinx made out from 46% (at
 * spoken lengths) to 58%, with 97% of the notes still on pitch (99% before).
 *
 * A syllable's phones: singing mode takes them with item.leafs, which in this Festival runs on to
 * the end of the word, so every syllable but a word's last was squeezed ("a" of "along" into
 * 25 ms, the rest of its note going to "long"). They are the syllable's daughters here.
 *
 * Timing: each syllable starts on its note. Singing mode moves a consonant ahead of the beat by
 * offsets measured for another voice's phones; that helped neither the recogniser nor the pitch.
 *
 * Words: singing mode gives the n-th syllable of a word its n-th note, which breaks whenever
 * Festival's lexicon counts a word's syllables differently from the lyric ("fire" is one syllable
 * sung, two in the lexicon) or a token becomes several words ("hmm" is spelled out). Here a
 * token's notes are spread over all the syllables of all its words by time: each syllable takes
 * its share of the notes, whole or in part, and the rest after the token follows its last
 * syllable.
 */
const SINGING_SCHEME = `
(voice_kal_diphone)
(require 'singing-mode)
(set! phoneme_durations
      (mapcar (lambda (p)
                (list (car p) (if (string-equal (phone_feature (car p) 'vc) "+") (cadr p) (* 2.0 (cadr p)))))
              kal_durs))
(define (sy-phones syl) (item.daughters (item.relation syl 'SylStructure)))
(define (sy-vowel? phone)
  (or (equal? "+" (item.feat phone "ph_vc")) (equal? "+" (item.feat phone "singing-vc"))))
(define (sy-where phones vowels)
  (let ((out nil))
    (mapcar (lambda (p) (if (equal? (sy-vowel? p) vowels) (set! out (cons p out)))) phones)
    out))
(define (sy-length phones) (apply + (mapcar (lambda (p) (get_avg_duration (item.name p))) phones)))
(define (singing_adjcons_syllable syl) nil)
(define (singing_do_syllable syl)
  (let ((phones (sy-phones syl))
        (duration (apply + (syl->durations syl))))
    ; a syllable without a vowel ("hmm" spelled out) sings its middle consonant as one
    (if (not (sy-where phones t))
        (item.set_feat (nth (nint (/ (- (length phones) 1) 2)) phones) "singing-vc" "+"))
    (let ((consonants (sy-length (sy-where phones nil)))
          (vowels (sy-length (sy-where phones t))))
      (let ((consonant-scale (if (< (+ consonants vowels) duration) 1.0 (/ duration (+ consonants vowels)))))
        (let ((vowel-scale (/ (- duration (* consonant-scale consonants)) vowels)))
          (mapcar (lambda (p)
                    (set! singing_global_time
                          (+ singing_global_time
                             (* (if (sy-vowel? p) vowel-scale consonant-scale) (get_avg_duration (item.name p)))))
                    (item.set_feat p 'end singing_global_time))
                  phones)))))
  (let ((rest (car (syl->rest syl))))
    (if (> rest 0)
        (let ((last (item.relation (item.daughtern (item.relation syl 'SylStructure)) 'Segment))
              (silence (car (car (cdr (assoc 'silences (PhoneSet.description))))))
              (sung-end singing_global_time))
          (set! singing_global_time (+ rest singing_global_time))
          (item.insert last (list silence (list (list "end" singing_global_time))) 'after)
          ; a very short pause first, so that the vowel does not ring into the rest
          (if (equal? (item.feat last "ph_vc") "+")
              (item.insert last (list silence (list (list "end" (+ sung-end 0.00001)))) 'after))))))
(define (sy-token syl)
  (item.parent (item.relation (item.parent (item.relation syl 'SylStructure)) 'Token)))
(define (sy-token-syllables token)
  (apply append (mapcar (lambda (w) (item.daughters (item.relation w 'SylStructure))) (item.daughters token))))
(define (sy-position syl syls)
  (let ((id (item.feat syl 'id)) (i 0))
    (while (and syls (not (equal? id (item.feat (car syls) 'id))))
      (set! i (+ i 1))
      (set! syls (cdr syls)))
    i))
(define (sy-notes syl)
  (let ((syls (sy-token-syllables (sy-token syl)))
        (durs (singing-feat syl "R:SylStructure.parent.R:Token.parent.dur"))
        (freqs (singing-feat syl "R:SylStructure.parent.R:Token.parent.freq"))
        (pieces nil)
        (j 0))
    (let ((n (length syls))
          (k (length durs))
          (i (sy-position (item.relation syl 'SylStructure) syls)))
      (let ((lo (/ (* i k) n)) (hi (/ (* (+ i 1) k) n)))
        (while (< j k)
          (let ((overlap (- (if (< (+ j 1) hi) (+ j 1) hi) (if (> j lo) j lo))))
            (if (> overlap 0.000001)
                (set! pieces (cons (list (* overlap (apply + (nth j durs))) (car (nth j freqs))) pieces))))
          (set! j (+ j 1)))
        (list (reverse pieces) (equal? i (- n 1)))))))
(define (syl->durations syl) (mapcar car (car (sy-notes syl))))
(define (syl->freq syl) (mapcar cadr (car (sy-notes syl))))
(define (syl->rest syl)
  (if (cadr (sy-notes syl))
      (list (or (singing-feat syl "R:SylStructure.parent.R:Token.parent.rest") 0.0))
      (list 0.0)))
(define (sy-sing xml wave)
  (set! tts_hooks (list utt.synth (lambda (utt) (utt.save.wave utt wave 'riff))))
  (tts_file xml 'singing))
`;

export interface SingingJob {
  /** A SINGING document. */
  xml: string;
  /** About how long it sings, for the time limit. */
  seconds: number;
}

const PROCESSES = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when fewer than PROCESSES Festival processes are running in this thread. */
async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

function festival(script: string, seconds: number): Promise<void> {
  // Festival sings far faster than real time: one still running after half a minute plus three
  // times its music's length is stuck.
  const timeout = Math.ceil(30_000 + 3_000 * seconds);
  return new Promise((resolve, reject) => {
    execFile(
      'festival',
      // Festival's default heap (10 million cells) takes a second to allocate at every start;
      // a million cells hold a phrase of 300 words.
      ['--heap', '1000000', '--batch', script],
      { timeout, killSignal: 'SIGKILL' },
      (error, _stdout, stderr) => {
        const problem = /SIOD ERROR|unbound variable|can't open|not found/i.exec(stderr)
          ? stderr.trim().split('\n').slice(-3).join(' ')
          : '';
        if (!error && problem === '') return resolve();
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT')
          return reject(new VoiceMissing(`Festival is not installed (Debian packages ${FESTIVAL_PACKAGES})`));
        if (error?.killed)
          return reject(
            new Error(`festival did not sing ${seconds.toFixed(1)} s within ${timeout / 1000} s`),
          );
        if (/voice_kal_diphone|lexicon/i.test(problem))
          return reject(
            new VoiceMissing(`Festival's voice or lexicon is missing (Debian packages ${FESTIVAL_PACKAGES})`),
          );
        reject(
          new Error(`festival failed: ${problem || stderr.trim().split('\n').at(-1) || error?.message}`),
        );
      },
    );
  });
}

/** A sung wave: mono samples at the voice's own rate (16 kHz for kal). */
export interface Sung {
  samples: Float32Array;
  rate: number;
}

/** The samples of a 16-bit mono RIFF wave, as floats, and its rate. */
function read(wave: Buffer): Sung {
  let rate = 16_000;
  for (let at = 12; at + 8 <= wave.length;) {
    const id = wave.toString('latin1', at, at + 4);
    const size = wave.readUInt32LE(at + 4);
    if (id === 'fmt ') rate = wave.readUInt32LE(at + 12);
    if (id === 'data') {
      const data = wave.subarray(at + 8, Math.min(wave.length, at + 8 + size));
      const samples = new Float32Array(data.length >> 1);
      for (let i = 0; i < samples.length; i += 1) samples[i] = data.readInt16LE(2 * i) / 32768;
      return { samples, rate };
    }
    at += 8 + size + (size & 1);
  }
  return { samples: new Float32Array(0), rate };
}

/** Each job sung, in order. */
export async function singAll(jobs: readonly SingingJob[]): Promise<Sung[]> {
  if (jobs.length === 0) return [];
  return withTemp(async (dir) => {
    const count = Math.min(PROCESSES, jobs.length);
    // Dealt round the processes in turn, so that each has phrases from all over the song.
    const batches = Array.from({ length: count }, (_, b) =>
      jobs.map((_, i) => i).filter((i) => i % count === b),
    );
    await Promise.all(jobs.map((job, i) => writeFile(join(dir, `phrase-${i}.xml`), job.xml)));
    // Every process is waited for, even when one fails, so that none is still writing into the
    // folder when it is removed.
    const settled = await Promise.allSettled(
      batches.map(async (batch, b) => {
        const script = join(dir, `batch-${b}.scm`);
        const calls = batch.map(
          (i) => `(sy-sing "${join(dir, `phrase-${i}.xml`)}" "${join(dir, `phrase-${i}.wav`)}")`,
        );
        await writeFile(script, `${SINGING_SCHEME}\n${calls.join('\n')}\n`);
        const seconds = batch.reduce((sum, i) => sum + jobs[i]!.seconds, 0);
        await bounded(() => festival(script, seconds));
      }),
    );
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return Promise.all(jobs.map(async (_, i) => read(await readFile(join(dir, `phrase-${i}.wav`)))));
  });
}
