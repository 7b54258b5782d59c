/**
 * cover and upload_cover: the melody and words of a song in a new style. A song the engine made
 * keeps its exact melody and lyrics; uploaded music gives its tune by pitch following on its
 * beat grid. `audio_weight` is how much of the original's tempo the cover keeps.
 */
import { durationOf } from '../../../engines/audio/index.js';
import type { Lyricist } from '../lyricist.js';
import type { MusicItem, Song } from '../library.js';
import type { Studio, Words } from '../studio.js';
import { madeFrom, specOf } from './generate.js';
import { keepTo } from './extend.js';
import { voiceOf } from './voice.js';
import { wordsOf } from './words.js';

const DEFAULT_AUDIO_WEIGHT = 0.5;

async function coverOf(studio: Studio, lyricist: Lyricist, song: Song): Promise<MusicItem[]> {
  const asked = await wordsOf(studio, lyricist, `${String(song.item.title ?? '')} (Cover)`.trim());
  const words: Words = { ...asked, lyric: asked.lyric || String(song.item.lyric ?? '') };
  const voice =
    studio.text('persona_id') || studio.text('vocal_gender')
      ? await voiceOf(studio)
      : (song.sound.voice ?? (await voiceOf(studio)));
  await studio.announce([words, words]);
  const keepTempo = studio.number('audio_weight') ?? DEFAULT_AUDIO_WEIGHT;
  const plan = song.sound.plan;
  const takes = await Promise.all(
    [studio.seed, studio.seed + 1].map(async (seed) => {
      if (plan) {
        return studio.engine.run('recompose', plan, {
          seed,
          style: words.style,
          styleNegative: studio.text('style_negative'),
          styleInfluence: studio.number('style_influence'),
          weirdness: studio.number('weirdness'),
          keepTempo,
        });
      }
      const mixdown = await studio.mixOf(song);
      const seconds = durationOf(mixdown);
      const { bpm, firstBeat } = song.sound;
      const melody = await studio.engine.runWith({ move: true }, 'follow', mixdown, bpm, firstBeat);
      const spec = { ...specOf(studio, words, voice, seed), melody, seconds };
      return studio.engine.run('compose', keepTempo >= 0.5 ? keepTo(spec, song, 0) : spec);
    }),
  );
  return Promise.all(
    takes.map((take) => studio.publish(madeFrom(take), words, { video: true, format: 'mp3' })),
  );
}

export async function cover(studio: Studio, lyricist: Lyricist): Promise<MusicItem[]> {
  return coverOf(studio, lyricist, await studio.song('audio_id', studio.text('audio_id')));
}

export async function uploadCover(studio: Studio, lyricist: Lyricist): Promise<MusicItem[]> {
  return coverOf(studio, lyricist, await studio.keepUpload());
}
