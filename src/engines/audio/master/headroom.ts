/**
 * Headroom for edits: what an edit adds up to is turned down where it would clip, and only
 * there, the same on every stem.
 */
import { mix, type Pcm } from '../dsp/pcm.js';

/** −0.5 dBFS: what an edit may reach before it is turned down. */
const CEILING = 0.944;
/** Blocks of this many seconds are turned down as a whole, with ramps to their neighbours. */
const BLOCK_SECONDS = 0.25;

/**
 * Edits can add up past full scale (a vocal laid over a loud song, a mashup): then the blocks
 * that would clip are turned down, each by what it needs, with linear ramps between blocks that
 * never exceed either side's gain. The same gain applies to every stem, so the stems still sum
 * to the song, and the music away from the loud blocks is left as it was.
 */
export function keepUnderFullScale(stems: Record<string, Pcm>): Record<string, Pcm> {
  const song = mix(Object.values(stems));
  const block = Math.round(BLOCK_SECONDS * song.rate);
  const length = song.channels[0]?.length ?? 0;
  const blocks = Math.ceil(length / block);
  const gains = new Float64Array(blocks).fill(1);
  let clips = false;
  for (const channel of song.channels) {
    for (let i = 0; i < length; i += 1) {
      const need = CEILING / Math.abs(channel[i]!);
      const b = Math.floor(i / block);
      if (need < gains[b]!) {
        gains[b] = need;
        clips = true;
      }
    }
  }
  if (!clips) return stems;
  // A node between two blocks takes the lower gain, so the ramp stays under both.
  const node = (k: number) => Math.min(gains[Math.max(0, k - 1)]!, gains[Math.min(blocks - 1, k)]!);
  for (const pcm of Object.values(stems)) {
    for (const channel of pcm.channels) {
      for (let i = 0; i < channel.length; i += 1) {
        const b = Math.floor(i / block);
        const t = (i - b * block) / block;
        channel[i]! *= node(b) + (node(b + 1) - node(b)) * t;
      }
    }
  }
  return stems;
}
