/**
 * stems (vocals and instrumental) and all_stems (one item per instrument). A song the engine
 * made has its stems exactly, as rendered; uploaded audio is taken apart by DSP separation
 * (centre-channel masking, harmonic/percussive split, bass band), whose parts sum to it by
 * construction. Stems are WAV (float) and carry their share of the MP3's coding error, so that
 * they sum back exactly to the song the client has.
 */
import type { Stems } from '../../../engines/audio/index.js';
import type { MusicItem, Song } from '../library.js';
import type { Studio, Words } from '../studio.js';

const titled = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

async function exactOrSeparated(studio: Studio, song: Song, all: boolean): Promise<Stems> {
  const exact = song.sound.origin === 'engine' && !('mix' in song.sound.stems);
  if (exact) {
    const stems = await studio.stemsOf(song);
    if (all) return stems;
    const { vocals, ...rest } = stems;
    return {
      ...(vocals ? { vocals } : {}),
      instrumental: await studio.engine.runWith({ move: true }, 'sumOf', rest),
    };
  }
  const whole = await studio.mixOf(song);
  if (all) return studio.engine.runWith({ move: true }, 'split', whole);
  const { vocals, accompaniment } = await studio.engine.runWith({ move: true }, 'separate', whole);
  return { vocals, instrumental: accompaniment };
}

async function takeApart(studio: Studio, all: boolean): Promise<MusicItem[]> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const [parts, heard] = await Promise.all([
    exactOrSeparated(studio, song, all),
    studio.decode('audio_id', String(song.item.audio_url)),
  ]);
  const stems = await studio.engine.runWith({ move: true }, 'shareCodingError', parts, heard);
  const wordsOf = (name: string): Words => ({
    title: `${String(song.item.title ?? '')} (${titled(name)})`.trim(),
    style: String(song.item.style ?? ''),
    lyric: name === 'vocals' ? String(song.item.lyric ?? '') : '',
    prompt: String(song.item.prompt ?? ''),
  });
  await studio.announce(Object.keys(stems).map(wordsOf));
  return Promise.all(
    Object.entries(stems).map(([name, pcm]) =>
      studio.publish(
        {
          stems: { [name]: pcm },
          origin: 'stem',
          analysis: song.sound,
          ...(name === 'vocals' && song.sound.voice ? { voice: song.sound.voice } : {}),
        },
        wordsOf(name),
        { video: false, format: 'wav', coverUrl: String(song.item.image_url ?? '') },
      ),
    ),
  );
}

export const stems = (studio: Studio) => takeApart(studio, false);
export const allStems = (studio: Studio) => takeApart(studio, true);
