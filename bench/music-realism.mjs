// Whether the sung words can be made out: 20 songs with English lyrics (varied genres and
// tempos) have their vocal line sung by Festival (the engine's singer for English) and by the
// formant singer (its singer before, and still for other scripts), and the same words are spoken
// by flite as a control (its voice slt: the default, kal at 8 kHz, was recognised far worse).
// Each is transcribed by pocketsphinx (US English model); the word recognition rate (WRR) is the
// share of the sung words that a minimum-edit alignment of the transcript with them matches, the
// same for all three. 1 − WER (clipped at 0) is reported beside it. A listen-proxy checks the
// melody: the share of sung notes of 0.2 s or more whose measured pitch (YIN, analysis/pitch.ts)
// is within 50 cents of the written note.
// Targets: Festival's WRR at least half the spoken control's and at least three times the formant
// singer's. The engine is imported from source, so it runs without a build:
// Usage: nice -n 10 npx tsx bench/music-realism.mjs [--songs 20]
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { planSong } from '../src/engines/audio/compose/plan.js';
import { pitchTrack } from '../src/engines/audio/analysis/pitch.js';
import { SAMPLE_RATE } from '../src/engines/audio/dsp/pcm.js';
import { hz } from '../src/engines/audio/compose/theory.js';
import { sing, voiceFor } from '../src/engines/audio/voice/singer.js';
import { festivalSpelling } from '../src/engines/audio/voice/spelling.js';
import { sungWords } from '../src/engines/audio/voice/sung-words.js';
import { singVocalLine } from '../src/engines/audio/voice/vocal-line.js';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({ options: { songs: { type: 'string', default: '20' } } });
const run = promisify(execFile);
const MODEL = '/usr/share/pocketsphinx/model/en-us';
const SECONDS = 30;
const TARGET_OF_SPOKEN = 0.5;
const TARGET_OF_FORMANT = 3;

// Written for this benchmark: everyday words, two sections each, one song per genre and tempo.
const SONGS = [
  [
    'synth pop, 128 bpm',
    'City lights are calling me\nRunning where the night is free',
    'We are young and we are gold\nDancing till the night is old',
  ],
  [
    'folk, 96 bpm',
    'The river runs beside my door\nI hear it singing evermore',
    'Carry me home across the hill\nWhere the morning air is still',
  ],
  [
    'rock, 140 bpm',
    'Turn it up and let it roar\nWe are knocking down the door',
    'Nothing stops us any more\nThis is what we waited for',
  ],
  [
    'ballad, 72 bpm',
    'I kept your letter in my hand\nAnd tried so hard to understand',
    'Stay with me until the dawn\nHold me close when hope is gone',
  ],
  [
    'country, 110 bpm',
    'My truck is old my boots are worn\nI drive the road where I was born',
    'Mama told me keep it true\nAnd I will find my way to you',
  ],
  [
    'punk, 170 bpm',
    'We do not care what people say\nWe want to live our lives today',
    'Break the rules and shout it loud\nStand up proud above the crowd',
  ],
  [
    'reggae, 80 bpm',
    'Sunshine falling on the sea\nEvery little bird is free',
    'Lift your voice and feel the sound\nLove is all around the town',
  ],
  [
    'funk, 105 bpm',
    'Get up now and move your feet\nFeel the rhythm of the street',
    'Shake it left and shake it right\nWe are going out tonight',
  ],
  [
    'blues, 84 bpm',
    'Woke up this morning feeling low\nMy baby packed her bags to go',
    'I got the blues down to my shoes\nI got nothing left to lose',
  ],
  [
    'jazz, 120 bpm',
    'Coffee in a paper cup\nWatching as the sun comes up',
    'Blue notes falling soft and slow\nPlay it one more time I know',
  ],
  [
    'disco, 118 bpm',
    'Mirror ball is spinning round\nEveryone is getting down',
    'Music take me higher now\nShow the world the way and how',
  ],
  [
    'hiphop, 92 bpm',
    'Started from the bottom of the block\nWorking every hour round the clock',
    'Now we made it to the top\nTell me why we cannot stop',
  ],
  [
    'rnb, 76 bpm',
    'Baby when you call my name\nNothing ever feels the same',
    'Hold me in the candle light\nStay with me another night',
  ],
  [
    'pop, 124 bpm',
    'Paint the sky in red and blue\nEvery color makes me think of you',
    'Hello summer hello sun\nNow the best days have begun',
  ],
  [
    'edm, 126 bpm',
    'Feel the fire in the air\nHands up high without a care',
    'Louder louder let it go\nLet the light begin to glow',
  ],
  [
    'country, 100 bpm',
    'There is a garden by the gate\nWhere my father used to wait',
    'Simple life and open skies\nApple trees and fireflies',
  ],
  [
    'latin, 112 bpm',
    'Dance with me beneath the moon\nPlay a sweet and gentle tune',
    'Turn around and take my hand\nWalk with me along the sand',
  ],
  [
    'lofi, 70 bpm',
    'Rain is tapping on the glass\nWatching all the hours pass',
    'Tea is warm and books are old\nStories that were never told',
  ],
  [
    'metal, 150 bpm',
    'Thunder breaking through the storm\nIron hearts are never torn',
    'Rise again and fight the night\nSteel and fire burning bright',
  ],
  [
    'waltz, 90 bpm',
    'Round and round the dancers go\nUnder candles burning low',
    'One more turn and one more song\nWe will dance the whole night long',
  ],
].slice(0, Number(values.songs));

/** Words as compared: lower case letters only, so "don't" and "dont" are one word. */
const normal = (text) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^a-z]/g, ''))
    .filter((w) => w !== '');

/** Hits, substitutions, deletions and insertions of a minimum-edit alignment (most hits among equals). */
function align(reference, hypothesis) {
  const n = reference.length;
  const m = hypothesis.length;
  const cost = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  const hits = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = 0; i <= n; i += 1) cost[i][0] = i;
  for (let j = 0; j <= m; j += 1) cost[0][j] = j;
  for (let i = 1; i <= n; i += 1) {
    for (let j = 1; j <= m; j += 1) {
      const same = reference[i - 1] === hypothesis[j - 1];
      const options = [
        [cost[i - 1][j - 1] + (same ? 0 : 1), hits[i - 1][j - 1] + (same ? 1 : 0)],
        [cost[i - 1][j] + 1, hits[i - 1][j]],
        [cost[i][j - 1] + 1, hits[i][j - 1]],
      ].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      [cost[i][j], hits[i][j]] = options[0];
    }
  }
  return { hits: hits[n][m], errors: cost[n][m] };
}

function scores(reference, transcript) {
  const { hits, errors } = align(reference, normal(transcript));
  return { wrr: hits / reference.length, accuracy: Math.max(0, 1 - errors / reference.length) };
}

/** Mono float samples at SAMPLE_RATE written as a 16 kHz 16-bit WAV (peak-normalised). */
async function wav16(samples, path) {
  let peak = 0;
  for (const v of samples) peak = Math.max(peak, Math.abs(v));
  const scaled = Float32Array.from(samples, (v) => (peak > 0 ? (0.9 * v) / peak : 0));
  const raw = `${path}.f32`;
  writeFileSync(raw, Buffer.from(scaled.buffer));
  await run('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'f32le', '-ar', String(SAMPLE_RATE), '-ac', '1', '-i', raw],
    ...['-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', path],
  ]);
  rmSync(raw);
}

async function transcribe(path) {
  const { stdout } = await run(
    'pocketsphinx_continuous',
    [
      ...['-infile', path, '-hmm', `${MODEL}/en-us`, '-lm', `${MODEL}/en-us.lm.bin`],
      ...['-dict', `${MODEL}/cmudict-en-us.dict`, '-logfn', '/dev/null'],
    ],
    { maxBuffer: 1 << 24 },
  );
  return stdout.trim().replace(/\s+/g, ' ');
}

/** Share of notes of 0.2 s or more whose median pitch over their middle half is within 50 cents. */
function onPitch(samples, notes) {
  const hop = 0.01;
  const track = pitchTrack(samples, SAMPLE_RATE, { hopSeconds: hop, minHz: 70, maxHz: 800 });
  const long = notes.filter((n) => n.duration >= 0.2);
  const good = long.filter((n) => {
    const from = Math.round((n.start + n.duration / 4) / hop);
    const to = Math.round((n.start + (3 * n.duration) / 4) / hop);
    const voiced = [...track.subarray(from, to)].filter((f) => f > 0).sort((a, b) => a - b);
    if (voiced.length === 0) return false;
    const f0 = voiced[voiced.length >> 1];
    return Math.abs(1200 * Math.log2(f0 / hz(n.midi))) <= 50;
  });
  return good.length / Math.max(1, long.length);
}

const dir = mkdtempSync(join(tmpdir(), 'switchyard-realism-'));
const rows = [];
const started = Date.now();
for (const [index, [style, verse, chorus]] of SONGS.entries()) {
  const lyric = `[Verse]\n${verse}\n[Chorus]\n${chorus}`;
  const voice = voiceFor(index % 2 === 0 ? 'f' : 'm', index);
  const plan = planSong({ seed: 100 + index, style, lyric, voice, maxSeconds: SECONDS });
  const frames = Math.round(plan.duration * SAMPLE_RATE);
  const notes = plan.melody.flatMap((n) =>
    n.text === null ? [] : [{ start: n.start, duration: n.duration, midi: n.midi, text: n.text }],
  );
  const words = sungWords(
    notes,
    plan.sections.flatMap((s) => s.lines),
  ).map((w) => festivalSpelling(w.text));
  const reference = normal(words.join(' '));

  let t = performance.now();
  const festival = await singVocalLine(plan, frames, SAMPLE_RATE);
  const festivalSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const formant = sing(notes, plan.voice, frames, SAMPLE_RATE, plan.seed);
  const formantSeconds = (performance.now() - t) / 1000;

  const paths = { festival: join(dir, `${index}-festival.wav`), formant: join(dir, `${index}-formant.wav`) };
  await Promise.all([wav16(festival, paths.festival), wav16(formant, paths.formant)]);
  const text = join(dir, `${index}.txt`);
  writeFileSync(text, `${words.join(' ')}\n`);
  paths.spoken = join(dir, `${index}-spoken.wav`);
  await run('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `flite=textfile=${text}:voice=slt`],
    ...['-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', paths.spoken],
  ]);
  const [heardFestival, heardFormant, heardSpoken] = await Promise.all([
    transcribe(paths.festival),
    transcribe(paths.formant),
    transcribe(paths.spoken),
  ]);
  const row = {
    style,
    voice: voice.gender,
    bpm: plan.bpm,
    seconds: Number(plan.duration.toFixed(1)),
    words: reference.length,
    festival: scores(reference, heardFestival),
    formant: scores(reference, heardFormant),
    spoken: scores(reference, heardSpoken),
    pitch: { festival: onPitch(festival, notes), formant: onPitch(formant, notes) },
    sing_seconds: { festival: festivalSeconds, formant: formantSeconds },
    heard: { festival: heardFestival, formant: heardFormant, spoken: heardSpoken },
  };
  rows.push(row);
  const pct = (x) => `${(100 * x).toFixed(0)}%`.padStart(5);
  console.log(
    `${style.padEnd(18)} ${voice.gender} ${String(reference.length).padStart(3)} words  WRR festival ${pct(row.festival.wrr)}  formant ${pct(row.formant.wrr)}  spoken ${pct(row.spoken.wrr)}  on pitch ${pct(row.pitch.festival)}  sung in ${festivalSeconds.toFixed(1)} s`,
  );
}
rmSync(dir, { recursive: true, force: true });

const total = (key, measure) => {
  const hits = rows.reduce((sum, r) => sum + r[key][measure] * r.words, 0);
  return hits / rows.reduce((sum, r) => sum + r.words, 0);
};
const summary = Object.fromEntries(
  ['festival', 'formant', 'spoken'].map((key) => [
    key,
    { wrr: total(key, 'wrr'), accuracy: total(key, 'accuracy') },
  ]),
);
const per30 = (key) =>
  (30 * rows.reduce((s, r) => s + r.sing_seconds[key], 0)) / rows.reduce((s, r) => s + r.seconds, 0);
const pitch = (key) => rows.reduce((s, r) => s + r.pitch[key], 0) / rows.length;
const targets = {
  of_spoken: summary.festival.wrr >= TARGET_OF_SPOKEN * summary.spoken.wrr,
  of_formant: summary.festival.wrr >= TARGET_OF_FORMANT * summary.formant.wrr,
};

console.log('\nvoice            WRR    1-WER  notes on pitch  singing s per 30 s song');
for (const key of ['festival', 'formant', 'spoken']) {
  const extra =
    key === 'spoken'
      ? ''
      : `  ${(100 * pitch(key)).toFixed(0).padStart(8)}%  ${per30(key).toFixed(2).padStart(10)}`;
  console.log(
    `${key.padEnd(14)} ${(100 * summary[key].wrr).toFixed(1).padStart(5)}%  ${(100 * summary[key].accuracy).toFixed(1).padStart(5)}%${extra}`,
  );
}
console.log(
  `\nFestival / spoken ${(summary.festival.wrr / summary.spoken.wrr).toFixed(2)} (target ≥ ${TARGET_OF_SPOKEN}: ${targets.of_spoken ? 'met' : 'missed'}), ` +
    `Festival / formant ${(summary.festival.wrr / Math.max(1e-9, summary.formant.wrr)).toFixed(1)} (target ≥ ${TARGET_OF_FORMANT}: ${targets.of_formant ? 'met' : 'missed'})`,
);
console.log(
  `${rows.length} songs in ${((Date.now() - started) / 1000).toFixed(0)} s; load average ${loadavg()[0].toFixed(1)}`,
);

saveReport('music-realism', {
  machine: machine(),
  load_average: loadavg()[0],
  date: new Date().toISOString(),
  summary,
  pitch_on_notes: { festival: pitch('festival'), formant: pitch('formant') },
  sing_seconds_per_30s: { festival: per30('festival'), formant: per30('formant') },
  targets,
  songs: rows,
});
