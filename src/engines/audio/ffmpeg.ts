/**
 * ffmpeg (from Debian) at the edges of the engine: uploaded audio of any common format becomes
 * PCM, and PCM becomes the files clients get (MP3 for songs, WAV for stems, FLAC for what the
 * engine keeps for itself), through the engines' shared tool runner (media-tools.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run, runPiped, ToolFailed, withTemp } from '../media-tools.js';
import { SAMPLE_RATE, type Pcm } from './dsp/pcm.js';

/** Audio that ffmpeg could not read as audio; the message says what it saw. */
export class UnreadableAudio extends Error {}

export type AudioFormat = 'mp3' | 'wav' | 'flac';

/** MP3 at 320 kb/s: the transparent end of MP3, so stems and edits of a song stay close to it. */
const ENCODERS: Record<AudioFormat, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '320k'],
  wav: ['-c:a', 'pcm_f32le'],
  flac: ['-c:a', 'flac', '-sample_fmt', 's32'],
};

/** Interleaved float32 little-endian, as ffmpeg reads and writes raw audio. */
function interleave(pcm: Pcm): Buffer {
  const [left, right = left] = pcm.channels;
  const length = left?.length ?? 0;
  const data = new Float32Array(length * 2);
  for (let i = 0; i < length; i += 1) {
    data[2 * i] = left![i]!;
    data[2 * i + 1] = right![i]!;
  }
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function deinterleave(raw: Buffer): Pcm {
  const samples = new Float32Array(raw.buffer, raw.byteOffset, Math.floor(raw.byteLength / 4));
  const length = Math.floor(samples.length / 2);
  const left = new Float32Array(length);
  const right = new Float32Array(length);
  for (let i = 0; i < length; i += 1) {
    left[i] = samples[2 * i]!;
    right[i] = samples[2 * i + 1]!;
  }
  return { rate: SAMPLE_RATE, channels: [left, right] };
}

const RAW = ['-f', 'f32le', '-ar', String(SAMPLE_RATE), '-ac', '2'];

/** Any audio ffmpeg reads, as 44.1 kHz stereo; at most `maxSeconds` of it. */
export async function decodeAudio(bytes: Buffer, maxSeconds: number, signal?: AbortSignal): Promise<Pcm> {
  const [pcm] = await decodeAudioAll([bytes], maxSeconds, signal);
  return pcm!;
}

/** Several files decoded by one ffmpeg, each to its own pipe: one fork instead of one per file. */
export async function decodeAudioAll(
  files: readonly Buffer[],
  maxSeconds: number,
  signal?: AbortSignal,
): Promise<Pcm[]> {
  return withTemp(async (dir) => {
    const paths = files.map((_, n) => join(dir, `input-${n}`));
    await Promise.all(files.map((bytes, n) => writeFile(paths[n]!, bytes)));
    const args = [
      ...paths.flatMap((path) => ['-i', path]),
      ...paths.flatMap((_, n) => ['-map', `${n}:a:0`, '-t', String(maxSeconds), ...RAW, `pipe:${3 + n}`]),
    ];
    let outputs: Buffer[];
    try {
      [, ...outputs] = await runPiped('ffmpeg', args, { signal, outputs: files.length });
    } catch (error) {
      if (error instanceof ToolFailed) throw new UnreadableAudio(error.message);
      throw error;
    }
    return outputs.map((raw) => {
      const pcm = deinterleave(raw);
      if ((pcm.channels[0]?.length ?? 0) === 0) throw new UnreadableAudio('holds no audio');
      return pcm;
    });
  });
}

export async function encodeAudio(pcm: Pcm, format: AudioFormat, signal?: AbortSignal): Promise<Buffer> {
  const [file] = await encodeAudioAll([pcm], format, signal);
  return file!;
}

/** Several PCMs encoded by one ffmpeg, each from its own pipe: one fork instead of one per stem. */
export async function encodeAudioAll(
  pcms: readonly Pcm[],
  format: AudioFormat,
  signal?: AbortSignal,
): Promise<Buffer[]> {
  return withTemp(async (dir) => {
    const paths = pcms.map((_, n) => join(dir, `output-${n}.${format}`));
    const args = [
      ...pcms.flatMap((pcm, n) => [
        '-f',
        'f32le',
        '-ar',
        String(pcm.rate),
        '-ac',
        '2',
        '-i',
        `pipe:${3 + n}`,
      ]),
      ...paths.flatMap((path, n) => ['-map', `${n}:a`, ...ENCODERS[format], path]),
    ];
    await runPiped('ffmpeg', args, { signal, inputs: pcms.map(interleave) });
    return Promise.all(paths.map((path) => readFile(path)));
  });
}

/**
 * A music video: the cover, with the song's waveform drawn live over its lower part, and the
 * song as sound. H.264 with the index at the front, so players start before the download ends.
 */
export async function renderVisualizer(cover: Buffer, song: Buffer, signal?: AbortSignal): Promise<Buffer> {
  return withTemp(async (dir) => {
    const image = join(dir, 'cover.png');
    const audio = join(dir, 'song.mp3');
    const path = join(dir, 'video.mp4');
    await Promise.all([writeFile(image, cover), writeFile(audio, song)]);
    // The cover is scaled and converted once, then its one frame repeated by `loop`: looping the
    // input instead decodes and scales the PNG for every frame, twice the CPU of the whole render.
    const graph =
      '[0:v]scale=480:480,setsar=1,format=yuv420p,loop=loop=-1:size=1,fps=24[c];' +
      '[1:a]showwaves=s=480x120:mode=cline:rate=24:colors=white@0.85[w];' +
      '[c][w]overlay=0:H-h-24:shortest=1,format=yuv420p[v]';
    await run(
      'ffmpeg',
      [
        '-i',
        image,
        '-i',
        audio,
        '-filter_complex',
        graph,
        '-map',
        '[v]',
        '-map',
        '1:a',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'stillimage',
        '-crf',
        '28',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-shortest',
        '-movflags',
        '+faststart',
        path,
      ],
      signal,
    );
    return readFile(path);
  });
}
