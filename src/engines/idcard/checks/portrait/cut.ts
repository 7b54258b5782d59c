/**
 * The holder's photo cut from the rectified card: the printed rectangle found by its own edges,
 * kept only when it holds a head and shoulders (a card with the photo blanked, covered or
 * replaced by text gives none).
 */
import { canvasOf, type Canvas } from '../../../canvas.js';
import type { Box } from '../../layout.js';
import { photoBounds } from './bounds.js';
import { findHead } from './head.js';
import { looksLikeHead } from './presence.js';

function cropped(canvas: Canvas, box: Box): Canvas {
  const out = canvasOf(box.width, box.height);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.y + y) * canvas.width + box.x) * 4;
    out.data.set(canvas.data.subarray(from, from + box.width * 4), y * box.width * 4);
  }
  return out;
}

/** The photo on a rectified card (CARD_WIDTH×CARD_HEIGHT), or null when its place holds no photo. */
export function cutPortrait(card: Canvas): Canvas | null {
  const photo = cropped(card, photoBounds(card));
  const head = findHead(photo);
  return head !== null && looksLikeHead(head) ? photo : null;
}
