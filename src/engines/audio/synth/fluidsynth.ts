/**
 * The band's instruments are sampled: each part is played from the General MIDI soundfont
 * MuseScore General (MIT) by FluidSynth (Debian's `fluidsynth`), one process a part, from a MIDI
 * file into 32-bit float stereo. The soundfont Debian ships (`musescore-general-soundfont-small`)
 * is compressed (SF3); `make build` decompresses it once into a file per preset the band plays
 * (dist/soundfont, scripts/soundfont.mjs), so that a part loads only its own preset's samples:
 * about 0.1 CPU-s and 20 MB a part, where the whole soundfont cost 0.6 CPU-s and 130 MB (FluidSynth
 * loads the piano and the standard kit its channels start on too) and decoding the SF3 seconds.
 * Effects are off: the engine's mastering shapes the mix.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTemp } from '../../media-tools.js';
import { midiFile, type MidiEvent } from './midi-file.js';

const SOUNDFONTS = fileURLToPath(new URL('../../../../dist/soundfont/', import.meta.url));
const SOUNDFONT_PACKAGE = 'musescore-general-soundfont-small';
const PLAYER_PACKAGE = 'fluidsynth';

/** What the engine needs to play instruments is not installed: the message names the package. */
export class InstrumentsMissing extends Error {}

/** What a part is played on: a program of the General MIDI bank, or a drum kit. */
export interface Preset {
  kit: boolean;
  program: number;
}

/** The stereo sound of one played part. */
export interface Played {
  left: Float32Array;
  right: Float32Array;
}

/** FluidSynth's output level: float samples do not clip, and each stem is levelled afterwards. */
const GAIN = 0.5;

function run(args: string[], seconds: number, signal?: AbortSignal): Promise<void> {
  // A bound on the render: faster than real time by far, so a player still running after a
  // minute plus twice the music's length is stuck, and is stopped before it fills the disk.
  const timeout = Math.ceil(60_000 + 2_000 * seconds);
  return new Promise((resolve, reject) => {
    execFile('fluidsynth', args, { signal, timeout, killSignal: 'SIGKILL' }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      if (error.killed && !signal?.aborted)
        return reject(
          new Error(`fluidsynth did not finish a ${seconds.toFixed(1)} s part within ${timeout / 1000} s`),
        );
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return reject(
          new InstrumentsMissing(`fluidsynth is not installed (Debian package ${PLAYER_PACKAGE})`),
        );
      reject(new Error(`fluidsynth failed: ${stderr.trim().split('\n').at(-1) ?? error.message}`));
    });
  });
}

/** `events` played on `preset` into `frames` samples of stereo at `rate`. */
export async function play(
  preset: Preset,
  events: readonly MidiEvent[],
  frames: number,
  rate: number,
  signal?: AbortSignal,
): Promise<Played> {
  const soundfont = join(SOUNDFONTS, `${preset.kit ? 'kit' : 'melodic'}-${preset.program}.sf2`);
  if (!existsSync(soundfont))
    throw new InstrumentsMissing(
      `the General MIDI soundfont is missing: install the Debian package ${SOUNDFONT_PACKAGE}, then run make build`,
    );
  return withTemp(async (dir) => {
    const [midi, raw] = [join(dir, 'part.mid'), join(dir, 'part.raw')];
    await writeFile(midi, midiFile(events, frames / rate));
    await run(
      [
        ...['-n', '-i', '-q', '-g', String(GAIN), '-r', String(rate)],
        ...['-O', 'float', '-T', 'raw', '-F', raw],
        ...['-o', 'synth.reverb.active=0', '-o', 'synth.chorus.active=0'],
        ...['-o', 'synth.dynamic-sample-loading=1', '-o', 'synth.cpu-cores=1'],
        soundfont,
        midi,
      ],
      frames / rate,
      signal,
    );
    const bytes = await readFile(raw);
    const interleaved = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
    const left = new Float32Array(frames);
    const right = new Float32Array(frames);
    const have = Math.min(frames, interleaved.length >> 1);
    for (let i = 0; i < have; i += 1) {
      left[i] = interleaved[2 * i]!;
      right[i] = interleaved[2 * i + 1]!;
    }
    return { left, right };
  });
}
