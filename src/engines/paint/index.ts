/**
 * Paint: colours from words and procedural backgrounds, shared by the QR renderer, the video
 * engine's scenes and the audio engine's covers.
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
