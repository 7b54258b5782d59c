/** The artistic QR code renderer: a payload, a style, a seed → a PNG that decoders read. */
export { renderQrArt, Unscannable, type QrArt, type QrArtRequest } from './render.js';
export { UnreadableImage } from '../image-codec.js';
export { capacityOf, isAscii } from './capacity.js';
export { TooDense, CANVAS_SIZES, type AspectRatio, type Position } from './layout.js';
export { PRESETS, PATTERNS } from '../paint/index.js';
export type { PixelStyle, MarkerShape, SubMarker } from './shapes.js';
export type { PayloadType } from './payload.js';
export { RenderPool } from './pool.js';
