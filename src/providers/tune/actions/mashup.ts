/**
 * mashup: the second song brought to the first one's tempo (time-stretched) and key (shifted to
 * the nearest transposition, minor keys compared by their relative major), its first beat laid
 * on the first one's, and the two mixed. When both have drums, the second's are left out: two
 * kits on one grid only blur each other.
 */
import { durationOf, silence, slice, type Stems } from '../../../engines/audio/index.js';
import type { MusicItem, Song } from '../library.js';
import type { Studio, Words } from '../studio.js';

/** Tempo ratios are taken within an octave of 1: 70 against 140 BPM is a match at double time. */
export function stretchRatio(fromBpm: number, toBpm: number): number {
  let ratio = fromBpm / toBpm;
  while (ratio > Math.SQRT2) ratio /= 2;
  while (ratio < Math.SQRT1_2) ratio *= 2;
  return ratio;
}

/** Semitones from one key to another, in [-6, 5]. */
export function transposition(from: Song['sound'], to: Song['sound']): number {
  const major = (sound: Song['sound']) => (sound.mode === 'minor' ? sound.root + 3 : sound.root);
  return ((((major(to) - major(from)) % 12) + 18) % 12) - 6;
}

export async function mashup(studio: Studio): Promise<MusicItem[]> {
  const [firstId, secondId] = studio.input.mashup_audio_ids as [string, string];
  const first = await studio.song('mashup_audio_ids[0]', firstId);
  const second = await studio.song('mashup_audio_ids[1]', secondId);
  const words: Words = {
    title: `${String(first.item.title ?? '')} × ${String(second.item.title ?? '')}`.slice(0, 80),
    style: [first.item.style, second.item.style].filter(Boolean).join(', '),
    lyric: [first.item.lyric, second.item.lyric].filter(Boolean).join('\n\n'),
    prompt: '',
  };
  await studio.announce([words]);
  const [a, b] = await Promise.all([studio.stemsOf(first), studio.stemsOf(second)]);
  const ratio = stretchRatio(second.sound.bpm, first.sound.bpm);
  const matched = await studio.engine.runWith(
    { move: true },
    'match',
    b,
    ratio,
    transposition(second.sound, first.sound),
  );
  const guest: Stems = {};
  for (const [name, pcm] of Object.entries(matched)) {
    if (name === 'drums' && a.drums) continue;
    guest[`${name} (${String(second.item.title ?? 'b')})`.slice(0, 60)] = pcm;
  }
  const length = durationOf(Object.values(a)[0] ?? silence(0));
  const host: Stems = { ...a };
  // Lay the second's first beat on the first's; what runs past the first song's end is cut.
  const offset = first.sound.firstBeat - second.sound.firstBeat * ratio;
  const mixed = await studio.engine.runWith(
    { move: true },
    'overlay',
    host,
    trimmed(guest, length, offset),
    Math.max(0, offset),
  );
  return [
    await studio.publish(
      {
        stems: mixed,
        origin: 'engine',
        analysis: first.sound,
        voice: first.sound.voice,
        level: first.sound.level,
      },
      words,
      { video: true, format: 'mp3' },
    ),
  ];
}

/** Cuts the part that would start before 0 or end after `length`. */
function trimmed(stems: Stems, length: number, offset: number): Stems {
  const from = Math.max(0, -offset);
  const to = from + Math.max(0, length - Math.max(0, offset));
  return Object.fromEntries(Object.entries(stems).map(([name, pcm]) => [name, slice(pcm, from, to)]));
}
