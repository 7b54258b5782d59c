/**
 * Paint: colours from words, procedural backgrounds and value noise, shared by the QR renderer,
 * the video engine's scenes and the audio engine's covers.
 */
export {
  PATTERNS,
  PRESETS,
  hsl,
  paletteOf,
  type Palette,
  type PaletteInput,
  type Pattern,
  type Rgb,
} from './palette.js';
export { paintBackground } from './background.js';
export { fbm1, noise2 } from './noise.js';
export { isHueWord } from './palette.js';
