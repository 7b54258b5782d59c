// Speed of the local music engine through the HTTP API, in one process with its worker threads:
// generate (two songs of about 30 s per request, as the origin returns, with MP3, cover, video
// and lossless stems), /tune/vox (vocal extraction) and remaster, each as seconds of audio made
// per second of wall time. The same songs are also composed by the engine alone, in this thread,
// so the cost of everything around composition (encoding, cover, video, storage) shows as a ratio.
// Then the signal processing that edits use, alone in this thread: a pitch track of a minute of
// voice-range tone and a time-stretch of 30 s of stereo.
// With --baseline DIR (the dist/ of another build, e.g. made by bench/baseline.sh REF), the same
// generations also run on a server of that build, in turns with this one, for a ratio in one run.
// Usage: npm run build && node bench/music.mjs [--runs 3] [--baseline DIR]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { compose } from '../dist/engines/audio/jobs.js';
import { voiceFor } from '../dist/engines/audio/voice/singer.js';
import { pitchTrack } from '../dist/engines/audio/analysis/pitch.js';
import { timeStretch } from '../dist/engines/audio/dsp/stretch.js';
import { freePort, machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, baseline: { type: 'string' } },
});
const RUNS = Number(values.runs);
const TARGET_GENERATE_SECONDS = 8;
const TARGET_VOX_REALTIME = 20;

// Four sung lines at 128 BPM: about 30 s with intro and outro.
const LYRIC =
  '[Verse]\nCity lights are calling me\nRunning where the night is free\n' +
  '[Chorus]\nWe are young and we are gold\nDancing till the night is old';
const STYLE = 'synth pop, 128 bpm, drums, bass, piano';

/** A server of the build in `dist` (a URL of its folder), on its defaults, with a credited token. */
async function startServer(dist) {
  const at = (path) => new URL(path, dist).href;
  const { loadConfig } = await import(at('config/index.js'));
  const { buildApp } = await import(at('http/app.js'));
  const { closeServices, openServices, startWorkers } = await import(at('services.js'));
  const port = await freePort();
  const config = loadConfig({
    env: {},
    overrides: { port, data_dir: mkdtempSync(join(tmpdir(), 'switchyard-bench-')), 'log.level': 'silent' },
  });
  const services = await openServices(config);
  const app = await buildApp(services);
  await startWorkers(services);
  const base = await app.listen({ port, host: '127.0.0.1' });
  const { secret } = await services.tokens.create({ name: 'bench', credits: 1_000_000 });
  return {
    async post(path, body) {
      const started = process.hrtime.bigint();
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
      return { answer, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
    },
    async close() {
      await app.close();
      await closeServices(services);
    },
  };
}

const current = await startServer(new URL('../dist/', import.meta.url));
const baseline = values.baseline
  ? await startServer(pathToFileURL(`${resolve(values.baseline)}/`))
  : undefined;
const post = (path, body) => current.post(path, body);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const generation = (seed) => ({
  action: 'generate',
  custom: true,
  style: STYLE,
  lyric: LYRIC,
  title: `Bench ${seed}`,
});

// Warm-up: worker threads start and load the engine.
await post('/tune/audios', generation(0));
await baseline?.post('/tune/audios', generation(0));

const rows = { generate: [], vox: [], remaster: [], baseline: [] };
for (let run = 1; run <= RUNS; run += 1) {
  if (baseline) {
    const before = await baseline.post('/tune/audios', generation(run));
    const songs = before.answer.data;
    rows.baseline.push({
      seconds: before.seconds,
      audio: songs.reduce((sum, song) => sum + song.duration, 0),
    });
  }
  const made = await post('/tune/audios', generation(run));
  const songs = made.answer.data;
  const audio = songs.reduce((sum, song) => sum + song.duration, 0);
  rows.generate.push({ seconds: made.seconds, audio, durations: songs.map((s) => s.duration) });
  const vox = await post('/tune/vox', { audio_id: songs[0].id });
  rows.vox.push({ seconds: vox.seconds, audio: songs[0].duration });
  const mastered = await post('/tune/audios', { action: 'remaster', audio_id: songs[0].id });
  rows.remaster.push({ seconds: mastered.seconds, audio: songs[0].duration });
}

// The engine alone: the same two songs planned and rendered here, one after the other.
const engine = [];
for (let run = 1; run <= RUNS; run += 1) {
  const started = process.hrtime.bigint();
  let audio = 0;
  for (const seed of [run, run + 1]) {
    const { plan } = await compose({
      seed,
      style: STYLE,
      lyric: LYRIC,
      voice: voiceFor(undefined, seed),
      maxSeconds: 240,
    });
    audio += plan.duration;
  }
  engine.push({ seconds: Number(process.hrtime.bigint() - started) / 1e9, audio });
}

// Signal processing alone, in this thread: a 60 s gliding tone tracked, 30 s of stereo stretched.
const RATE = 44100;
const glide = (seconds) => {
  const out = new Float32Array(seconds * RATE);
  let phase = 0;
  for (let i = 0; i < out.length; i += 1) {
    phase += (2 * Math.PI * (200 + 50 * Math.sin(i / RATE))) / RATE;
    out[i] = 0.5 * Math.sin(phase);
  }
  return out;
};
const dsp = { pitch: [], stretch: [] };
const voiceTone = glide(60);
const stereo = { rate: RATE, channels: [glide(30), glide(30)] };
for (let run = 1; run <= RUNS; run += 1) {
  let started = process.hrtime.bigint();
  pitchTrack(voiceTone, RATE);
  dsp.pitch.push({ seconds: Number(process.hrtime.bigint() - started) / 1e9, audio: 60 });
  started = process.hrtime.bigint();
  timeStretch(stereo, 1.1);
  dsp.stretch.push({ seconds: Number(process.hrtime.bigint() - started) / 1e9, audio: 30 });
}

await current.close();
await baseline?.close();

const summary = (name, list, note) => {
  const seconds = median(list.map((r) => r.seconds));
  const audio = median(list.map((r) => r.audio));
  return {
    case: name,
    wall_s: +seconds.toFixed(2),
    audio_s: +audio.toFixed(1),
    realtime: +(audio / seconds).toFixed(1),
    note,
  };
};
const table = [
  summary('generate (2 songs, HTTP)', rows.generate, 'MP3, cover, video, stems kept'),
  ...(baseline ? [summary('generate, baseline build', rows.baseline, values.baseline)] : []),
  summary('compose only (2 songs, engine)', engine, 'plan + render, one thread'),
  summary('vox (HTTP)', rows.vox, 'decode, separate, MP3'),
  summary('remaster (HTTP)', rows.remaster, 'stems decoded, mastered, re-encoded'),
  summary('pitch track (engine)', dsp.pitch, '60 s mono, one thread'),
  summary('time-stretch ×1.1 (engine)', dsp.stretch, '30 s stereo, one thread'),
];
console.table(table);
const [generate] = table;
const [composeOnly, vox, remaster] = table.slice(baseline ? 2 : 1);
// Two songs of 30 s: the measured wall time scaled to exactly 60 s of audio.
const twoThirtySecondSongs = +((generate.wall_s * 60) / generate.audio_s).toFixed(2);
const baselineRow = baseline ? table[1] : undefined;
const baselineSongs = baselineRow ? +((baselineRow.wall_s * 60) / baselineRow.audio_s).toFixed(2) : undefined;
const overhead = +(generate.wall_s / composeOnly.wall_s).toFixed(2);
console.log(
  `two 30 s songs: ${twoThirtySecondSongs} s (target ≤ ${TARGET_GENERATE_SECONDS} s: ${twoThirtySecondSongs <= TARGET_GENERATE_SECONDS ? 'met' : 'missed'}); ` +
    `vox ×${vox.realtime} real time (target ≥ ${TARGET_VOX_REALTIME}: ${vox.realtime >= TARGET_VOX_REALTIME ? 'met' : 'missed'}); ` +
    `HTTP generate / engine compose: ×${overhead}` +
    (baselineSongs
      ? `; baseline build: two 30 s songs ${baselineSongs} s (this build ×${(twoThirtySecondSongs / baselineSongs).toFixed(2)})`
      : ''),
);

saveReport('music', {
  date: new Date().toISOString(),
  machine: machine(),
  request: `generate custom, style "${STYLE}", a four-line lyric (about 30 s per song); vox and remaster on the first song`,
  method: `one warm-up generation, then ${RUNS} runs of generate → vox → remaster over HTTP on loopback; medians. Then the same songs composed by the engine in the benchmark's own thread`,
  targets: { two_30s_songs_s: TARGET_GENERATE_SECONDS, vox_realtime: TARGET_VOX_REALTIME },
  target_met: {
    generate: twoThirtySecondSongs <= TARGET_GENERATE_SECONDS,
    vox: vox.realtime >= TARGET_VOX_REALTIME,
  },
  result: {
    table,
    two_30s_songs_s: twoThirtySecondSongs,
    ...(baseline ? { baseline: values.baseline, baseline_two_30s_songs_s: baselineSongs } : {}),
    http_generate_over_engine_compose: overhead,
    remaster_realtime: remaster.realtime,
    runs: { ...rows, ...dsp },
  },
});
