/**
 * samples: loops cut from a window of a song on its bar lines (whole bars from the first bar
 * line in the window), the mix and each stem, each fading what follows its end into its start
 * so that it repeats without a seam. WAV, as samples are material for further production.
 */
import { badRequest } from '../../../errors.js';
import type { MusicItem } from '../library.js';
import type { Studio, Words } from '../studio.js';
import { windowOf } from './edit.js';

const BEATS_PER_BAR = 4;

export async function samples(studio: Studio): Promise<MusicItem[]> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const { start, end } = windowOf(studio, song, 'samples');
  const bar = (BEATS_PER_BAR * 60) / song.sound.bpm;
  const firstBar =
    song.sound.firstBeat + Math.max(0, Math.ceil((start - song.sound.firstBeat) / bar - 1e-6)) * bar;
  const bars = Math.floor((end - firstBar) / bar + 1e-6);
  if (bars < 1) {
    throw badRequest([
      {
        field: 'samples_end',
        rule: `must leave at least one whole bar (${bar.toFixed(2)} s at ${Math.round(song.sound.bpm)} BPM) after the first bar line at ${firstBar.toFixed(2)} s`,
      },
    ]);
  }
  const stemsOfSong = await studio.stemsOf(song);
  const names = ['mix', ...Object.keys(stemsOfSong).filter((name) => name !== 'mix')];
  const wordsOf = (name: string): Words => ({
    title: `${String(song.item.title ?? '')} (${name} loop, ${bars} bar${bars > 1 ? 's' : ''})`.trim(),
    style: String(song.item.style ?? ''),
    lyric: '',
    prompt: String(song.item.prompt ?? ''),
  });
  await studio.announce(names.map(wordsOf));
  const loops = await studio.engine.runWith({ move: true }, 'loops', stemsOfSong, firstBar, bars, bar);
  return Promise.all(
    names.map((name) =>
      studio.publish(
        { stems: { [name]: loops[name]! }, origin: 'stem', analysis: { ...song.sound, firstBeat: 0 } },
        wordsOf(name),
        { video: false, format: 'wav', coverUrl: String(song.item.image_url ?? '') },
      ),
    ),
  );
}
