/**
 * Where ink goes: for a point inside a module (u, v in [0, 1)), whether the module's dark shape
 * covers it; for a point inside a finder (7×7) or alignment (5×5) pattern, whether it is dark.
 * Every shape covers its module's centre, and every marker keeps the 1:1:3:1:1 proportions
 * along its middle row and column, which is what decoders look for.
 */
export type PixelStyle = 'square' | 'rounded' | 'dot' | 'squircle' | 'row' | 'column';
export type MarkerShape = 'square' | 'circle' | 'plus' | 'box' | 'octagon' | 'tiny-plus';
export type SubMarker = 'square' | 'circle' | 'box' | 'plus';
/** Module shapes: the request's pixel styles and the materials' own (materials.ts). */
export type ModuleShape = PixelStyle | 'blot' | 'tile';

/** Bits of the neighbours that are dark too: joined styles (row, column, rounded) depend on them. */
export const UP = 1;
export const DOWN = 2;
export const LEFT = 4;
export const RIGHT = 8;

const ROUND = 0.32;

/** Inside a square with corners of `radius` rounded where `round(corner)` says so. */
function roundedSquare(
  u: number,
  v: number,
  radius: number,
  round: (left: boolean, top: boolean) => boolean,
): boolean {
  const left = u < radius;
  const right = u > 1 - radius;
  const top = v < radius;
  const bottom = v > 1 - radius;
  if (!(left || right) || !(top || bottom)) return true;
  if (!round(left, top)) return true;
  const cx = left ? radius : 1 - radius;
  const cy = top ? radius : 1 - radius;
  return (u - cx) ** 2 + (v - cy) ** 2 <= radius * radius;
}

/**
 * `wobble` (0..1, one value per module) roughens a blot's rim, so ink dots differ as a pen's do;
 * a tile leaves the grout of the mosaic's grid (its top and left edges) uncovered.
 */
export function inModule(style: ModuleShape, u: number, v: number, neighbours: number, wobble = 0): boolean {
  // Plain booleans, not an object: this runs for every pixel of a code.
  const up = (neighbours & UP) !== 0;
  const down = (neighbours & DOWN) !== 0;
  const left = (neighbours & LEFT) !== 0;
  const right = (neighbours & RIGHT) !== 0;
  const x = u - 0.5;
  const y = v - 0.5;
  switch (style) {
    case 'square':
      return true;
    case 'blot': {
      const angle = Math.atan2(y, x);
      const rim = 0.47 + 0.035 * Math.sin(3 * angle + wobble * 20) + 0.02 * Math.sin(5 * angle + wobble * 7);
      return x * x + y * y <= rim * rim;
    }
    case 'tile':
      return u >= 0.08 && v >= 0.08;
    case 'dot':
      return x * x + y * y <= 0.46 * 0.46;
    case 'squircle':
      return x ** 4 + y ** 4 <= 0.48 ** 4;
    case 'rounded':
      // Only the outer corners of a group of dark modules are rounded.
      return roundedSquare(u, v, ROUND, (atLeft, atTop) => !(atLeft ? left : right) && !(atTop ? up : down));
    case 'row':
      if (Math.abs(y) > 0.4) return false;
      if (x < 0 && !left) return x * x + y * y <= 0.4 * 0.4 || Math.abs(x) <= 0.1;
      if (x > 0 && !right) return x * x + y * y <= 0.4 * 0.4 || Math.abs(x) <= 0.1;
      return true;
    case 'column':
      if (Math.abs(x) > 0.4) return false;
      if (y < 0 && !up) return x * x + y * y <= 0.4 * 0.4 || Math.abs(y) <= 0.1;
      if (y > 0 && !down) return x * x + y * y <= 0.4 * 0.4 || Math.abs(y) <= 0.1;
      return true;
  }
}

/** A point of a 7×7 finder pattern: a ring 1 wide, a gap 1 wide, a centre 3 wide. */
export function inFinder(shape: MarkerShape, x: number, y: number): boolean {
  const dx = Math.abs(x - 3.5);
  const dy = Math.abs(y - 3.5);
  const square = Math.max(dx, dy);
  const squareRing = square >= 2.5 && square <= 3.5;
  switch (shape) {
    case 'square':
      return squareRing || square <= 1.5;
    case 'circle': {
      // Round to the eye, a little squarer than a circle (a superellipse of power 3): more rows
      // either side of the middle keep the proportions that scanline decoders count.
      const d = Math.cbrt(dx ** 3 + dy ** 3);
      return (d >= 2.5 && d <= 3.5) || d <= 1.5;
    }
    case 'octagon': {
      const d = Math.max(dx, dy, (dx + dy) / 1.35);
      return (d >= 2.5 && d <= 3.5) || d <= 1.5;
    }
    case 'box':
      // Rounded corners outside and in.
      return (
        (square <= 3.5 && !(dx > 2.5 && dy > 2.5 && Math.hypot(dx - 2.5, dy - 2.5) > 1) && square >= 2.5) ||
        (square <= 1.5 && !(dx > 0.9 && dy > 0.9 && Math.hypot(dx - 0.9, dy - 0.9) > 0.6))
      );
    case 'plus':
      // Corners cut on the diagonal, the centre's more than the ring's: a plus, still solid
      // enough along the diagonals for decoders that check them.
      return (squareRing && dx + dy <= 6.2) || (square <= 1.5 && dx + dy <= 2.85);
    case 'tiny-plus':
      return squareRing || (square <= 1.5 && !(dx > 1.35 && dy > 1.35));
  }
}

/** A point of a 5×5 alignment pattern: a ring 1 wide, a gap 1 wide, a centre 1 wide. */
export function inAlignment(shape: SubMarker, x: number, y: number): boolean {
  const dx = Math.abs(x - 2.5);
  const dy = Math.abs(y - 2.5);
  const square = Math.max(dx, dy);
  switch (shape) {
    case 'square':
      return square >= 1.5 || square <= 0.5;
    case 'circle': {
      const d = Math.hypot(dx, dy);
      return (d >= 1.5 && d <= 2.5) || d <= 0.55;
    }
    case 'box':
      return (
        (square >= 1.5 && !(dx > 1.5 && dy > 1.5 && Math.hypot(dx - 1.5, dy - 1.5) > 1)) ||
        Math.hypot(dx, dy) <= 0.6
      );
    case 'plus':
      return square >= 1.5 || (square <= 0.7 && (dx <= 0.25 || dy <= 0.25));
  }
}
