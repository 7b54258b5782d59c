// The 20-second excerpts docs/music.md links, one per genre: a song of each genre composed by the
// built engine (dist/) from one English lyric, mastered as a generated song is, and 20 s of it
// from the first sung note encoded as a small MP3 (56 kbit/s) under docs/audio/GENRE.mp3.
// Usage: make build && node scripts/music-excerpts.mjs [GENRE ...]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { GENRES } from '../dist/engines/audio/compose/genres/index.js';
import { compose, sumOf } from '../dist/engines/audio/jobs.js';
import { voiceFor } from '../dist/engines/audio/voice/singer.js';

const LYRIC =
  '[Verse]\nWalking down the river road\nUnder skies of gray and gold\n' +
  '[Chorus]\nHold the light and let it glow\nSing it loud and let it go';
const SECONDS = 20;
const OUT = new URL('../docs/audio/', import.meta.url);

const wanted = process.argv.slice(2);
const genres = GENRES.map((genre) => genre.name).filter((name) => !wanted.length || wanted.includes(name));
mkdirSync(OUT, { recursive: true });
for (const [index, genre] of genres.entries()) {
  const seed = 100 + index;
  const { plan, stems } = await compose({
    seed,
    style: genre,
    lyric: LYRIC,
    voice: voiceFor(index % 2 ? 'm' : 'f', seed),
    maxSeconds: 240,
  });
  const mix = sumOf(stems);
  const sung = plan.melody.find((note) => note.text !== null);
  // From a beat before the first sung note, so that the excerpt has its voice and its band.
  const start = Math.max(0, Math.min((sung?.start ?? 0) - 60 / plan.bpm, plan.duration - SECONDS));
  const [left, right] = mix.channels;
  const from = Math.round(start * mix.rate);
  const frames = Math.min(Math.round(SECONDS * mix.rate), left.length - from);
  const interleaved = new Float32Array(frames * 2);
  for (let i = 0; i < frames; i += 1) {
    interleaved[2 * i] = left[from + i];
    interleaved[2 * i + 1] = right[from + i];
  }
  const mp3 = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-f', 'f32le', '-ar', String(mix.rate), '-ac', '2', '-i', 'pipe:0'].concat([
      '-af',
      'afade=t=in:d=0.3,afade=t=out:st=19:d=1',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '56k',
      '-f',
      'mp3',
      'pipe:1',
    ]),
    { input: Buffer.from(interleaved.buffer), maxBuffer: 64 * 2 ** 20 },
  );
  writeFileSync(new URL(`${genre}.mp3`, OUT), mp3);
  console.log(
    `${genre}: ${plan.bpm} bpm, ${plan.parts.map((part) => part.name).join(', ')}; from ${start.toFixed(1)} s`,
  );
}
