/**
 * Edits of one audio that keep its length and beat grid: replace_section (new music between
 * two times), underpainting (accompaniment added under a window), overpainting (a sung vocal
 * added over a window) and remaster. Each works on the audio's stems, so its stems still sum
 * to the result.
 */
import { badRequest } from '../../../errors.js';
import type { Stems } from '../../../engines/audio/index.js';
import type { Lyricist } from '../lyricist.js';
import type { MusicItem, Song } from '../library.js';
import type { Made, Studio, Words } from '../studio.js';
import { specOf } from './generate.js';
import { keepTo } from './extend.js';
import { voiceOf } from './voice.js';
import { wordsOf } from './words.js';

export interface Window {
  start: number;
  end: number;
}

/** `<action>_start` and `<action>_end`; the end must fall before the song ends (spec Limits). */
export function windowOf(studio: Studio, song: Song, action: string): Window {
  const start = studio.number(`${action}_start`) ?? 0;
  const end = studio.number(`${action}_end`) ?? song.duration;
  if (end >= song.duration) {
    throw badRequest([
      { field: `${action}_end`, rule: `must be less than the song's duration (${song.duration} s)` },
    ]);
  }
  return { start, end };
}

function wordsOfSong(song: Song, suffix: string): Words {
  return {
    title: `${String(song.item.title ?? '')} ${suffix}`.trim(),
    style: String(song.item.style ?? ''),
    lyric: String(song.item.lyric ?? ''),
    prompt: String(song.item.prompt ?? ''),
  };
}

function madeLike(song: Song, stems: Stems): Made {
  return {
    level: song.sound.level,
    stems,
    origin: song.sound.origin,
    analysis: song.sound,
    plan: song.sound.plan,
    voice: song.sound.voice,
  };
}

/** New music for a window of the song, on its tempo, key and grid; `parts` limits the stems. */
async function partFor(studio: Studio, lyricist: Lyricist, song: Song, window: Window, sung: boolean) {
  const asked = await wordsOf(studio, lyricist, String(song.item.title ?? ''));
  const words: Words = { ...asked, style: asked.style || String(song.item.style ?? '') };
  const voice = song.sound.voice ?? (await voiceOf(studio));
  const spec = {
    ...specOf(studio, words, voice, studio.seed),
    seconds: window.end - window.start,
    instrumental: !sung || !words.lyric,
  };
  return { words, spec: keepTo(spec, song, window.start) };
}

export async function replaceSection(studio: Studio, lyricist: Lyricist): Promise<MusicItem[]> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const window = windowOf(studio, song, 'replace_section');
  const { words, spec } = await partFor(studio, lyricist, song, window, true);
  const result: Words = { ...wordsOfSong(song, ''), lyric: words.lyric || String(song.item.lyric ?? '') };
  await studio.announce([result]);
  const [stems, part] = await Promise.all([
    studio.stemsOf(song),
    studio.engine.run('compose', spec, song.sound.level),
  ]);
  const edited = await studio.engine.runWith(
    { move: true },
    'spliced',
    stems,
    part.stems,
    window.start,
    window.end,
  );
  return [await studio.publish(madeLike(song, edited), result, { video: true, format: 'mp3' })];
}

async function paint(
  studio: Studio,
  lyricist: Lyricist,
  action: 'underpainting' | 'overpainting',
): Promise<MusicItem[]> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const window = windowOf(studio, song, action);
  const vocal = action === 'overpainting';
  const { words, spec } = await partFor(studio, lyricist, song, window, vocal);
  if (vocal && !words.lyric) {
    throw badRequest([
      { field: 'lyric', rule: 'is required when action is overpainting and the song has no lyrics to sing' },
    ]);
  }
  const result: Words = {
    ...wordsOfSong(song, ''),
    lyric: vocal ? words.lyric : String(song.item.lyric ?? ''),
  };
  await studio.announce([result]);
  const [stems, part] = await Promise.all([
    studio.stemsOf(song),
    studio.engine.run('compose', { ...spec, lyric: words.lyric }, song.sound.level),
  ]);
  const added = Object.fromEntries(
    Object.entries(part.stems).filter(([name]) => (name === 'vocals') === vocal),
  );
  const edited = await studio.engine.runWith({ move: true }, 'overlay', stems, added, window.start);
  return [await studio.publish(madeLike(song, edited), result, { video: true, format: 'mp3' })];
}

export const underpainting = (studio: Studio, lyricist: Lyricist) => paint(studio, lyricist, 'underpainting');
export const overpainting = (studio: Studio, lyricist: Lyricist) => paint(studio, lyricist, 'overpainting');

export async function remaster(studio: Studio): Promise<MusicItem[]> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const words = wordsOfSong(song, '(Remastered)');
  await studio.announce([words]);
  const mastered = await studio.engine.runWith({ move: true }, 'master', await studio.stemsOf(song));
  return [await studio.publish(madeLike(song, mastered), words, { video: true, format: 'mp3' })];
}
