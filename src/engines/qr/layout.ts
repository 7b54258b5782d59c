/**
 * Where the code sits: canvas sizes per aspect ratio, the code's box (centred codes take more of
 * the image than codes placed toward an edge), the quiet zone, and whole-pixel modules so that
 * every module has the same size.
 */
export const CANVAS_SIZES = {
  '1:1': [768, 768],
  '16:9': [1008, 576],
  '9:16': [576, 1008],
  '4:3': [864, 672],
  '3:4': [672, 864],
} as const;
export type AspectRatio = keyof typeof CANVAS_SIZES;
export type Position =
  'center' | 'top' | 'right' | 'bottom' | 'left' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** Quiet zone that stays whatever padding_level says: decoders need a light border to find the code. */
export const MIN_QUIET_MODULES = 2;
/** Smallest module that decoders read reliably from a PNG. */
export const MIN_MODULE_PIXELS = 2;

export interface Layout {
  width: number;
  height: number;
  /** Top-left pixel of the box holding the code and its quiet zone. */
  x: number;
  y: number;
  /** Pixels per module. */
  module: number;
  /** Quiet zone, in modules, on each side. */
  quiet: number;
}

export class TooDense extends Error {}

export function layoutOf(
  size: number,
  aspect: AspectRatio,
  position: Position,
  paddingPercent: number,
): Layout {
  const [width, height] = CANVAS_SIZES[aspect];
  const short = Math.min(width, height);
  const share = position === 'center' ? 0.88 : 0.72;
  const quiet = Math.max(MIN_QUIET_MODULES, Math.ceil((size * paddingPercent) / 100));
  const module = Math.floor((short * share) / (size + 2 * quiet));
  if (module < MIN_MODULE_PIXELS) {
    throw new TooDense(
      `a ${size}×${size} code does not fit ${width}×${height} with ${MIN_MODULE_PIXELS}-pixel modules; shorten content, lower ecl or padding_level`,
    );
  }
  const side = module * (size + 2 * quiet);
  const margin = Math.round(short * 0.04);
  const along = (room: number, start: boolean, end: boolean) =>
    start ? margin : end ? room - margin : Math.floor(room / 2);
  return {
    width,
    height,
    x: along(width - side, position.endsWith('left'), position.endsWith('right')),
    y: along(height - side, position.startsWith('top'), position.startsWith('bottom')),
    module,
    quiet,
  };
}
