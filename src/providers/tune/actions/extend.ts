/**
 * extend, upload_extend and concat. An extension is the new music only, from `continue_at` of
 * the audio it continues (as the origin returns it); concat joins a chain of extensions back
 * into the whole song. Uploaded music is kept as an audio of its own, so that its extensions
 * join back onto it too.
 */
import { durationOf, type SongSpec, type Stems } from '../../../engines/audio/index.js';
import { badRequest } from '../../../errors.js';
import type { Lyricist } from '../lyricist.js';
import type { MusicItem, Song } from '../library.js';
import { MAX_SONG_SECONDS } from '../../../contract/tune-models.js';
import type { Made, Studio, Words } from '../studio.js';
import { madeFrom, specOf } from './generate.js';
import { voiceOf } from './voice.js';
import { wordsOf } from './words.js';

/** Without new lyrics an extension is an instrumental continuation of this length (or less). */
const INSTRUMENTAL_EXTENSION_SECONDS = 30;

/**
 * How a new part keeps to an existing audio: the engine's own plan when it made it; otherwise
 * the tempo and key measured from the audio, given to the engine as style words it obeys.
 */
export function keepTo(spec: SongSpec, song: Song, at: number): SongSpec {
  if (song.sound.plan) return { ...spec, base: song.sound.plan, at };
  const names = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
  const measured = `${Math.round(song.sound.bpm)} bpm, in ${names[song.sound.root]} ${song.sound.mode}`;
  return { ...spec, style: `${spec.style} ${measured}`.trim(), styleInfluence: 1 };
}

async function continuation(
  studio: Studio,
  lyricist: Lyricist,
  song: Song,
  at: number,
): Promise<MusicItem[]> {
  const words = await wordsOf(studio, lyricist, song.item.title as string | undefined);
  const wordsWithStyle: Words = { ...words, style: words.style || String(song.item.style ?? '') };
  const voice = song.sound.voice ?? (await voiceOf(studio));
  await studio.announce([wordsWithStyle, wordsWithStyle]);
  const base = specOf(studio, wordsWithStyle, voice, studio.seed);
  const spec = keepTo(
    wordsWithStyle.lyric
      ? base
      : { ...base, seconds: Math.min(INSTRUMENTAL_EXTENSION_SECONDS, studio.maxSeconds) },
    song,
    at,
  );
  const takes = await Promise.all([
    studio.engine.run('compose', spec, song.sound.level),
    studio.engine.run('compose', { ...spec, seed: spec.seed + 1 }, song.sound.level),
  ]);
  return Promise.all(
    takes.map((take) =>
      studio.publish(madeFrom(take), wordsWithStyle, {
        video: true,
        format: 'mp3',
        parentId: song.id,
        continueAt: at,
      }),
    ),
  );
}

export async function extend(studio: Studio, lyricist: Lyricist): Promise<MusicItem[]> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const at = studio.number('continue_at') ?? song.duration;
  if (at >= song.duration) {
    throw badRequest([
      { field: 'continue_at', rule: `must be less than the audio's duration (${song.duration} s)` },
    ]);
  }
  return continuation(studio, lyricist, song, at);
}

export async function uploadExtend(studio: Studio, lyricist: Lyricist): Promise<MusicItem[]> {
  const song = await studio.keepUpload();
  const at = studio.number('continue_at') ?? song.duration;
  if (at > song.duration) {
    throw badRequest([
      { field: 'continue_at', rule: `must be at most the uploaded audio's duration (${song.duration} s)` },
    ]);
  }
  return continuation(studio, lyricist, song, at);
}

/** The audios from the first one to `song`, each extension after the one it continues. */
async function chainOf(studio: Studio, song: Song): Promise<Song[]> {
  const chain = [song];
  let current = song;
  while (current.parentId) {
    const parent = await studio.library.song(studio.job.tokenId, current.parentId);
    if (!parent || chain.length > 100) break;
    chain.unshift(parent);
    current = parent;
  }
  return chain;
}

export async function concat(studio: Studio): Promise<MusicItem[]> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const chain = await chainOf(studio, song);
  const first = chain[0]!;
  const words: Words = {
    title: String(first.item.title ?? ''),
    style: String(song.item.style ?? first.item.style ?? ''),
    lyric: chain
      .map((part) => String(part.item.lyric ?? ''))
      .filter(Boolean)
      .join('\n\n'),
    prompt: String(first.item.prompt ?? ''),
  };
  await studio.announce([words]);
  let whole: Stems = await studio.stemsOf(first);
  for (const part of chain.slice(1)) {
    const tail = await studio.stemsOf(part);
    whole = await studio.engine.runWith({ move: true }, 'joined', whole, part.continueAt ?? 0, tail);
  }
  const seconds = durationOf(Object.values(whole)[0]!);
  if (seconds > MAX_SONG_SECONDS) {
    throw badRequest([
      {
        field: 'audio_id',
        rule: `joins into ${Math.round(seconds)} s, over the ${MAX_SONG_SECONDS} s a song may last`,
      },
    ]);
  }
  const made: Made = {
    stems: whole,
    origin: song.sound.origin,
    analysis: song.sound,
    plan: first.sound.plan,
    level: first.sound.level,
    voice: song.sound.voice,
  };
  return [await studio.publish(made, words, { video: true, format: 'mp3' })];
}
