/**
 * The image checks of an ID card: sharpness, photocopy, card cut off, photo of a screen, pasted
 * fields, and the holder's portrait (cut from the card, compared with a reference). Each works on
 * the card rectified to the canonical raster (and, where the whole picture matters, on the photo
 * as taken); none reads the text.
 */
export { qualityScore } from './quality.js';
export { isPhotocopy } from './photocopy.js';
export { isCutOff } from './cut-off.js';
export { isReshoot } from './reshoot.js';
export { isTampered } from './tamper.js';
export { cutPortrait } from './portrait/cut.js';
export { portraitSimilarity } from './portrait/similarity.js';
