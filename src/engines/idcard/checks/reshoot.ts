/**
 * A picture of the card taken off a screen (a "reshoot"): the screen's pixel grid in the picture
 * as taken (where it is straightest, before any rectification resamples it), or a glare washing
 * out part of the card.
 */
import type { Canvas } from '../../canvas.js';
import { hasGlare } from './glare.js';
import { gridPeaks } from './moire.js';

/**
 * A fine frequency this many times above its ring's typical power is a grid, not print: in
 * colour, where a screen's bands and sub-pixels are strongest, and in brightness, which survives
 * JPEG's halving of colour. Photos of printed cards stay below about a thousand in colour and
 * five hundred in brightness.
 */
const COLOUR_PEAK = 3000;
const BRIGHTNESS_PEAK = 600;

export function isReshoot(image: Canvas, card: Canvas): boolean {
  const peaks = gridPeaks(image);
  return peaks.colour >= COLOUR_PEAK || peaks.brightness >= BRIGHTNESS_PEAK || hasGlare(card);
}
