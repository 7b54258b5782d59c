// Which soundfont player renders the band's parts: FluidSynth (Debian's CLI, one process a part,
// as the engine runs it) or spessasynth_core (npm, TypeScript, in the calling thread). The same
// MIDI file on the same per-preset soundfont file (dist/soundfont, as `make build` writes it), for
// three parts of 30 s at 128 BPM: piano chords, a bass line and a drum pattern. Per part and
// player: wall time, CPU time (the child's for FluidSynth, this thread's for spessasynth_core), and
// how alike the two renders are (correlation of their loudness envelopes, 50 ms windows).
// Usage: make build && node bench/synth-renderers.mjs [--runs 3]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BasicMIDI, SoundBankLoader, SpessaSynthProcessor, SpessaSynthSequencer } from 'spessasynth_core';
import { play } from '../dist/engines/audio/synth/fluidsynth.js';
import { midiFile } from '../dist/engines/audio/synth/midi-file.js';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const RATE = 44_100;
const SECONDS = 30;
const BEAT = 60 / 128;
const GAIN = 0.5;

/** Notes as MIDI events, each `[seconds, key, length, velocity]` on `channel` played by `program`. */
function notes(channel, program, list) {
  return [
    { seconds: 0, type: 'program', channel, program },
    ...list.flatMap(([seconds, key, length, velocity]) => [
      { seconds, type: 'on', channel, key, velocity },
      { seconds: seconds + length, type: 'off', channel, key },
    ]),
  ];
}

const beats = Math.floor((SECONDS - 2) / BEAT);
const CHORDS = [
  [60, 64, 67],
  [57, 60, 64],
  [53, 57, 60],
  [55, 59, 62],
];
const PARTS = [
  {
    name: 'piano chords',
    preset: { kit: false, program: 0 },
    events: notes(
      0,
      0,
      Array.from({ length: beats }, (_, b) =>
        CHORDS[Math.floor(b / 4) % 4].map((key) => [b * BEAT, key, BEAT * 0.9, 80]),
      ).flat(),
    ),
  },
  {
    name: 'bass line',
    preset: { kit: false, program: 33 },
    events: notes(
      0,
      33,
      Array.from({ length: beats }, (_, b) => [
        b * BEAT,
        CHORDS[Math.floor(b / 4) % 4][0] - 24,
        BEAT * 0.8,
        90,
      ]),
    ),
  },
  {
    name: 'drum pattern',
    preset: { kit: true, program: 0 },
    events: notes(
      9,
      0,
      Array.from({ length: beats * 2 }, (_, e) => [
        [e * (BEAT / 2), 42, 0.1, 70],
        ...(e % 4 === 0 ? [[e * (BEAT / 2), 36, 0.2, 110]] : []),
        ...(e % 4 === 2 ? [[e * (BEAT / 2), 38, 0.2, 100]] : []),
      ]).flat(),
    ),
  },
];

/** CPU seconds of this process's reaped children (utime + stime from /proc). */
function childrenCpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

async function fluid(part, frames) {
  const [wall0, cpu0] = [performance.now(), childrenCpu()];
  const played = await play(part.preset, part.events, frames, RATE);
  return { wall: (performance.now() - wall0) / 1000, cpu: childrenCpu() - cpu0, left: played.left };
}

function spessa(part, frames) {
  const [wall0, cpu0] = [performance.now(), process.cpuUsage()];
  const file = readFileSync(
    new URL(
      `../dist/soundfont/${part.preset.kit ? 'kit' : 'melodic'}-${part.preset.program}.sf2`,
      import.meta.url,
    ),
  );
  const synth = new SpessaSynthProcessor(RATE, {
    effectsEnabled: false,
    eventsEnabled: false,
    maxBufferSize: 128,
  });
  synth.soundBankManager.addSoundBank(
    SoundBankLoader.fromArrayBuffer(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength)),
    'main',
  );
  const midi = midiFile(part.events, frames / RATE);
  const sequencer = new SpessaSynthSequencer(synth);
  sequencer.loadNewSongList([
    BasicMIDI.fromArrayBuffer(midi.buffer.slice(midi.byteOffset, midi.byteOffset + midi.byteLength)),
  ]);
  sequencer.play();
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let at = 0; at < frames; at += 128) {
    sequencer.processTick();
    synth.process(left, right, at, Math.min(128, frames - at));
  }
  for (let i = 0; i < frames; i += 1) left[i] *= GAIN;
  const cpu = process.cpuUsage(cpu0);
  return { wall: (performance.now() - wall0) / 1000, cpu: (cpu.user + cpu.system) / 1e6, left };
}

/** Correlation of two signals' loudness in 50 ms windows: 1 when they rise and fall together. */
function envelopeCorrelation(a, b) {
  const window = Math.round(0.05 * RATE);
  const env = (x) =>
    Array.from({ length: Math.floor(x.length / window) }, (_, w) => {
      let sum = 0;
      for (let i = w * window; i < (w + 1) * window; i += 1) sum += x[i] * x[i];
      return Math.sqrt(sum / window);
    });
  const [x, y] = [env(a), env(b)];
  const mean = (v) => v.reduce((s, e) => s + e, 0) / v.length;
  const [mx, my] = [mean(x), mean(y)];
  let [sxy, sxx, syy] = [0, 0, 0];
  for (let i = 0; i < x.length; i += 1) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const frames = SECONDS * RATE;

const rows = [];
for (const part of PARTS) {
  const runs = { fluidsynth: [], spessasynth: [] };
  let last = {};
  for (let run = 0; run < RUNS; run += 1) {
    last.fluidsynth = await fluid(part, frames);
    last.spessasynth = spessa(part, frames);
    runs.fluidsynth.push(last.fluidsynth);
    runs.spessasynth.push(last.spessasynth);
  }
  const likeness = envelopeCorrelation(last.fluidsynth.left, last.spessasynth.left);
  for (const player of ['fluidsynth', 'spessasynth']) {
    rows.push({
      part: part.name,
      player,
      wall_s: Number(median(runs[player].map((r) => r.wall)).toFixed(3)),
      cpu_s: Number(median(runs[player].map((r) => r.cpu)).toFixed(3)),
      envelope_correlation: Number(likeness.toFixed(3)),
    });
  }
}
console.table(rows);
const total = (player, key) => rows.filter((r) => r.player === player).reduce((s, r) => s + r[key], 0);
const ratio = total('spessasynth', 'cpu_s') / total('fluidsynth', 'cpu_s');
console.log(
  `three 30 s parts: FluidSynth ${total('fluidsynth', 'cpu_s').toFixed(2)} CPU-s, spessasynth_core ${total('spessasynth', 'cpu_s').toFixed(2)} CPU-s (×${ratio.toFixed(2)})`,
);
saveReport('synth-renderers', {
  machine: machine(),
  runs: RUNS,
  seconds: SECONDS,
  rows,
  cpu_ratio_spessasynth_over_fluidsynth: ratio,
});
