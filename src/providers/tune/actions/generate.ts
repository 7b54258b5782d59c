/**
 * generate, artist_consistency and artist_consistency_vox: two takes of a new song, as the
 * origin returns. With tune-v5 `variation_category` sets how far the second take strays from
 * the first; before v5 the second is an independent take of the same words.
 */
import type { Analysis, SongPlan, SongSpec, Take } from '../../../engines/audio/index.js';
import type { Lyricist } from '../lyricist.js';
import type { MusicItem } from '../library.js';
import type { Made, Studio, Words } from '../studio.js';
import { voiceOf } from './voice.js';
import { wordsOf } from './words.js';

export function analysisOf(plan: SongPlan): Analysis {
  return {
    bpm: plan.bpm,
    firstBeat: plan.firstBeat,
    root: plan.root,
    mode: plan.mode === 'minor' ? 'minor' : 'major',
  };
}

export function madeFrom(take: Take): Made {
  return {
    stems: take.stems,
    origin: 'engine',
    plan: take.plan,
    analysis: analysisOf(take.plan),
    voice: take.plan.voice,
    level: take.level,
  };
}

/** The request's musical choices as a song spec. */
export function specOf(studio: Studio, words: Words, voice: SongSpec['voice'], seed: number): SongSpec {
  return {
    seed,
    style: words.style,
    styleNegative: studio.text('style_negative'),
    styleInfluence: studio.number('style_influence'),
    weirdness: studio.number('weirdness'),
    lyric: words.lyric,
    instrumental: studio.input.instrumental === true || !words.lyric,
    voice,
    maxSeconds: studio.maxSeconds,
  };
}

export async function generate(studio: Studio, lyricist: Lyricist): Promise<MusicItem[]> {
  const words = await wordsOf(studio, lyricist);
  const voice = await voiceOf(studio);
  await studio.announce([words, words]);
  const spec = specOf(studio, words, voice, studio.seed);
  const variation = studio.text('variation_category');
  let takes;
  if (variation) {
    const first = await studio.engine.run('compose', spec);
    takes = [
      first,
      await studio.engine.run('vary', first.plan, variation as 'subtle' | 'normal' | 'high', studio.seed + 1),
    ];
  } else {
    // Two independent takes: one per worker thread at once.
    takes = await Promise.all([
      studio.engine.run('compose', spec),
      studio.engine.run('compose', { ...spec, seed: studio.seed + 1 }),
    ]);
  }
  return Promise.all(
    takes.map((take) => studio.publish(madeFrom(take), words, { video: true, format: 'mp3' })),
  );
}
