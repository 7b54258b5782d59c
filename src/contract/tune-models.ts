/**
 * What each model allows. The origin's generations grew longer with each version: up to two
 * minutes for v3, four for v3.5 and v4, eight from v4.5 on. An extension adds at most a
 * generation's worth; an upload is read up to the same length.
 */
const MAX_SECONDS: Record<string, number> = {
  'tune-v3-0': 120,
  'tune-v3-5': 240,
  'tune-v4': 240,
  'tune-v4-5': 480,
  'tune-v4-5-plus': 480,
  'tune-v5': 480,
};

export const DEFAULT_MODEL = 'tune-v4';

export function maxSecondsOf(model: string): number {
  return MAX_SECONDS[model] ?? 240;
}

/** A whole song (concat) may hold several generations; this bounds what one item holds. */
export const MAX_SONG_SECONDS = 1200;
