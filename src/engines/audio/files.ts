/**
 * Audio files in and out of the engine, as steps on a worker thread: every ffmpeg run forks the
 * whole process (tens to hundreds of milliseconds once it holds songs), its pipes carry hundreds
 * of megabytes, and the samples are interleaved, mixed and levelled in loops over every sample.
 * On the thread that answers requests each of these would hold up every request in hand.
 * Signals do not cross threads: a task's deadline comes as a time, and ffmpeg is stopped at it.
 */
import { decodeAudioAll, encodeAudioAll, renderVisualizer } from './ffmpeg.js';
import { durationOf, mix, type Pcm } from './dsp/pcm.js';
import { keepUnderFullScale } from './master/headroom.js';
import { reportProgress } from '../worker-methods.js';

/** Aborted at `deadline` (Unix ms), like the task's own signal; none without one. */
function signalAt(deadline?: number): AbortSignal | undefined {
  return deadline === undefined ? undefined : AbortSignal.timeout(Math.max(1, deadline - Date.now()));
}

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Files of any format ffmpeg reads, as 44.1 kHz stereo, at most `maxSeconds` each. */
export function readAudio(files: Uint8Array[], maxSeconds: number, deadline?: number): Promise<Pcm[]> {
  return decodeAudioAll(files.map(bufferOf), maxSeconds, signalAt(deadline));
}

/** The sum of files read: a song from the stems it is kept as. */
export async function readMix(files: Uint8Array[], maxSeconds: number, deadline?: number): Promise<Pcm> {
  return mix(await readAudio(files, maxSeconds, deadline));
}

/** The sum of parts as one file. */
export async function writeMix(
  parts: Pcm[],
  format: 'mp3' | 'wav' | 'flac',
  deadline?: number,
): Promise<Uint8Array> {
  const [file] = await encodeAudioAll([mix(parts)], format, signalAt(deadline));
  return file!;
}

export interface ItemFormats {
  /** The song as clients get it. */
  format: 'mp3' | 'wav';
  /** An MP3 besides, for a music video of a song whose file is not one. */
  mp3: boolean;
  /** The stems as FLAC: what later edits of the item start from. */
  lossless: boolean;
  deadline: number;
}

export interface ItemFiles {
  /** Seconds of the song. */
  duration: number;
  audio: Uint8Array;
  mp3?: Uint8Array;
  /** FLAC per stem, in the stems' order. */
  stems?: Record<string, Uint8Array>;
}

/**
 * The files of an item from its stems: turned down where they would clip, mixed and encoded, the
 * stems encoded beside the song. Reports the item's progress as `mix`, then `encode`.
 */
export async function itemFiles(stems: Record<string, Pcm>, formats: ItemFormats): Promise<ItemFiles> {
  const levelled = keepUnderFullScale(stems);
  const mixdown = mix(Object.values(levelled));
  reportProgress(0.1, 'encode');
  const signal = signalAt(formats.deadline);
  const songs = [formats.format, ...(formats.mp3 ? (['mp3'] as const) : [])];
  const names = Object.keys(levelled);
  const [files, kept] = await Promise.all([
    Promise.all(songs.map(async (format) => (await encodeAudioAll([mixdown], format, signal))[0]!)),
    formats.lossless ? encodeAudioAll(Object.values(levelled), 'flac', signal) : undefined,
  ]);
  return {
    duration: durationOf(mixdown),
    audio: files[0]!,
    ...(files[1] ? { mp3: files[1] } : {}),
    ...(kept ? { stems: Object.fromEntries(names.map((name, n) => [name, kept[n]!])) } : {}),
  };
}

/** The music video of a song: its cover with the waveform drawn live (MP4). */
export function musicVideo(cover: Uint8Array, mp3: Uint8Array, deadline: number): Promise<Uint8Array> {
  return renderVisualizer(bufferOf(cover), bufferOf(mp3), signalAt(deadline));
}
