/**
 * The frame of a video request: its size from the family's resolution and ratio words, its rate
 * and its length. Sizes are even (H.264 4:2:0 needs it) and follow the usual 16:9 ladder.
 */
const SHORT_SIDE: Record<string, number> = { '480p': 480, '720p': 720, '1080p': 1080 };

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/** Width and height for a resolution word and a ratio `w:h` (or a width/height number). */
export function frameSize(resolution: string, ratio: string | number): { width: number; height: number } {
  const short = SHORT_SIDE[resolution] ?? 720;
  let aspect: number;
  if (typeof ratio === 'number') aspect = ratio;
  else {
    const [w, h] = ratio.split(':').map(Number);
    aspect = w && h ? w / h : 16 / 9;
  }
  return aspect >= 1
    ? { width: even(short * aspect), height: even(short) }
    : { width: even(short), height: even(short / aspect) };
}

/** Every family renders at 24 frames per second (DECISIONS section 9 gives dance's frames at 24). */
export const FPS = 24;
