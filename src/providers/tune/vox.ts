/**
 * `/tune/vox`: the vocal of an audio by DSP separation (centre-channel masking for stereo,
 * harmonic/percussive and voice-band masking for mono), where it sings, and its waveform as
 * min/max peaks at several resolutions. The vocal is kept as an audio of the token, so that a
 * persona can learn its voice (`vox_audio_id`).
 */
import { badRequest } from '../../errors.js';
import type { Studio } from './studio.js';

export async function extractVocals(studio: Studio): Promise<Record<string, unknown>> {
  const song = await studio.song('audio_id', studio.text('audio_id'));
  const start = studio.number('vocal_start') ?? 0;
  const end = studio.number('vocal_end') ?? song.duration;
  if (start >= song.duration) {
    throw badRequest([
      { field: 'vocal_start', rule: `must be less than the audio's duration (${song.duration} s)` },
    ]);
  }
  if (end > song.duration) {
    throw badRequest([
      { field: 'vocal_end', rule: `must be at most the audio's duration (${song.duration} s)` },
    ]);
  }
  // The song as clients hear it: one decode, where its stems would be several.
  const whole = await studio.decode('audio_id', String(song.item.audio_url));
  // One piece of the window per worker thread: separation is most of the work.
  const pieces = studio.engine.size;
  const bounds = Array.from({ length: pieces + 1 }, (_, i) => start + ((end - start) * i) / pieces);
  const parts = await Promise.all(
    bounds.slice(1).map((to, i) => studio.engine.run('vocalsOf', whole, bounds[i]!, to)),
  );
  // The parts are joined, and the window cut from the song, on a worker thread too.
  const { vocals, span, aggregates } = await studio.engine.runWith(
    { move: true },
    'describeVocal',
    parts,
    whole,
    start,
    end,
  );
  const item = await studio.publish(
    { stems: { vocals }, origin: 'vocal', analysis: song.sound },
    {
      title: `${String(song.item.title ?? '')} (Vocals)`.trim(),
      style: String(song.item.style ?? ''),
      lyric: String(song.item.lyric ?? ''),
      prompt: '',
    },
    { video: false, format: 'mp3', coverUrl: String(song.item.image_url ?? ''), lossless: false },
  );
  const seconds = (value: number) => Math.round(value * 1000) / 1000;
  return {
    id: item.id,
    source_clip_id: song.id,
    vocal_audio_url: item.audio_url,
    // No singing found: an empty span at the window's start.
    vocal_start_s: seconds(span?.start ?? start),
    vocal_end_s: seconds(span?.end ?? start),
    wave_response: { waveform_aggregates: aggregates },
  };
}
