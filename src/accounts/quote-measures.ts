/**
 * What a request will make, read from its body before it runs, for a price that counts it:
 * seconds of video and their resolution band, songs, images. Each reading follows what the
 * family's engine does with the same fields (providers/video/requests.ts, providers/tune/).
 */
import { defaultResolution, parseDanceFlags, type DanceFlags } from '../contract/dance-flags.js';
import { maxSecondsOf } from '../contract/tune-models.js';

export interface VideoMeasure {
  seconds: number;
  band: string;
}

const DEFAULT_CLIP_SECONDS = 5;
const DEFAULT_DANCE_SECONDS = 5;
/** MiniMax's generations: six seconds at 720p. */
const MAXI = { seconds: 6, band: '720p' };
const FRAMES_PER_SECOND = 24;

function danceFlags(body: Record<string, unknown>): DanceFlags {
  const content = Array.isArray(body.content) ? (body.content as { type?: string; text?: string }[]) : [];
  const text = content.find((item) => item.type === 'text')?.text;
  return typeof text === 'string' ? parseDanceFlags(text).flags : {};
}

/** Seconds and resolution of a video request; undefined for keys that make no video. */
export function videoMeasure(key: string, body: Record<string, unknown>): VideoMeasure | undefined {
  if (key === 'clip.videos') {
    // Clip's modes are its resolutions upstream: std renders 720p, pro 1080p.
    const seconds = typeof body.duration === 'number' ? body.duration : DEFAULT_CLIP_SECONDS;
    return { seconds, band: body.mode === 'pro' ? '1080p' : '720p' };
  }
  if (key === 'dance.videos') {
    // A body field wins over its inline flag, as the engine reads them.
    const flags = danceFlags(body);
    const band = (body.resolution ?? flags.resolution ?? defaultResolution(body.model)) as string;
    const seconds =
      typeof body.frames === 'number'
        ? body.frames / FRAMES_PER_SECOND
        : Number(body.duration ?? flags.duration ?? DEFAULT_DANCE_SECONDS);
    return { seconds, band };
  }
  if (key === 'maxi.videos') return MAXI;
  return undefined;
}

/** Songs a `/tune/audios` action returns: two takes, one joined song, or stems only. */
export function songsOf(action: unknown): number {
  if (action === 'stems' || action === 'all_stems') return 0;
  if (action === 'concat') return 1;
  return 2;
}

/** The most minutes of music a request can make: its songs at the model's longest. */
export function musicMinutesAtMost(body: Record<string, unknown>): number {
  const model = typeof body.model === 'string' ? body.model : '';
  return (songsOf(body.action ?? 'generate') * maxSecondsOf(model)) / 60;
}
