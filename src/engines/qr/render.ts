/**
 * An artistic QR code: procedural art (or a given image) with the code drawn into it. Modules
 * keep the art's colours and move only in luminance, so the code reads as part of the picture
 * while every decoder still sees dark and light where the symbol has them.
 */
import { canvasOf, type Canvas } from '../canvas.js';
import { paintBackground, paletteOf, type Palette } from '../paint/index.js';
import { inksOf, luminance, paint } from './ink.js';
import { layoutOf, type AspectRatio, type Layout, type Position } from './layout.js';
import type { Ecl } from './capacity.js';
import { encode, rotate, type QrSymbol } from './matrix.js';
import { payloadOf, type PayloadType } from './payload.js';
import { encodePng } from '../image-codec.js';
import jsQRModule from 'jsqr';
import { hashOf, pick, seeded, type Random } from '../random.js';
import {
  DOWN,
  LEFT,
  RIGHT,
  UP,
  inAlignment,
  inFinder,
  inModule,
  type MarkerShape,
  type ModuleShape,
  type PixelStyle,
  type SubMarker,
} from './shapes.js';
import { drawThings, thingsOf, type Things } from './art.js';
import { lookOf, type Material } from './materials.js';
import { paintTexture } from './textures.js';

export interface QrArtRequest {
  content: string;
  type: PayloadType;
  ecl: Ecl;
  seed: number;
  aspectRatio: AspectRatio;
  pixelStyle?: PixelStyle;
  markerShape?: MarkerShape | 'random';
  subMarker?: SubMarker | 'random';
  rotate?: number;
  position?: Position;
  /** Quiet zone as a percentage of the code's side: 0, 5, 10, 15 or 20. */
  paddingLevel?: number;
  /** 0 to 1: texture in the quiet zone. */
  paddingNoise?: number;
  qrw?: number;
  steps?: number;
  prompt?: string;
  negativePrompt?: string | null;
  preset?: string;
  pattern?: string;
  /** An image to blend the code into, decoded. */
  image?: Canvas;
}

export interface QrArt {
  png: Buffer;
  /** The look the prompt asked for ("ink", "neon", …), if any. */
  material?: string;
  /** The prompt's nouns drawn into the picture, and those no drawing stands for. */
  drawn: string[];
  unknownNouns: string[];
  /** Drawn nouns no drawing names, with the more general word drawn in their place. */
  standIns: { noun: string; as: string }[];
  width: number;
  height: number;
  seed: number;
  /** What the code encodes. */
  payload: string;
}

const MARKERS: readonly MarkerShape[] = ['square', 'circle', 'plus', 'box', 'octagon', 'tiny-plus'];
const SUB_MARKERS: readonly SubMarker[] = ['square', 'circle', 'box', 'plus'];
// A CommonJS module whose typings declare an ES default export: the function is the module.
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsQRModule as unknown as { default?: JsQr }).default ?? jsQRModule) as unknown as JsQr;

/** The image scaled to cover the canvas (cropped, centred), as the art. */
function cover(canvas: Canvas, image: Canvas): void {
  const scale = Math.max(canvas.width / image.width, canvas.height / image.height);
  const ox = (image.width * scale - canvas.width) / 2;
  const oy = (image.height * scale - canvas.height) / 2;
  for (let y = 0; y < canvas.height; y += 1) {
    const sy = Math.min(image.height - 1, Math.floor((y + oy) / scale));
    for (let x = 0; x < canvas.width; x += 1) {
      const sx = Math.min(image.width - 1, Math.floor((x + ox) / scale));
      const s = (sy * image.width + sx) * 4;
      const o = (y * canvas.width + x) * 4;
      const alpha = (image.data[s + 3] ?? 255) / 255;
      // Transparent pixels over white.
      canvas.data[o] = (image.data[s] ?? 0) * alpha + 255 * (1 - alpha);
      canvas.data[o + 1] = (image.data[s + 1] ?? 0) * alpha + 255 * (1 - alpha);
      canvas.data[o + 2] = (image.data[s + 2] ?? 0) * alpha + 255 * (1 - alpha);
      canvas.data[o + 3] = 255;
    }
  }
}

/** For each module: 0 data or other, 1–3 the finder it belongs to, 4+ its alignment pattern. */
function rolesOf(symbol: QrSymbol): Int16Array {
  const n = symbol.size;
  const roles = new Int16Array(n * n);
  symbol.finders.forEach(([r0, c0], i) => {
    for (let r = 0; r < 7; r += 1) for (let c = 0; c < 7; c += 1) roles[(r0 + r) * n + c0 + c] = 1 + i;
  });
  symbol.alignments.forEach(([r0, c0], i) => {
    for (let r = 0; r < 5; r += 1) for (let c = 0; c < 5; c += 1) roles[(r0 + r) * n + c0 + c] = 4 + i;
  });
  return roles;
}

interface Drawing {
  symbol: QrSymbol;
  layout: Layout;
  palette: Palette;
  style: ModuleShape;
  /** Dark modules show diagonal threads. */
  threads: boolean;
  finders: MarkerShape[];
  alignments: SubMarker[];
  noise: number;
  qrw: number;
  halftone: boolean;
  random: Random;
}

/** One number in [0, 1) per module, for shapes that vary from module to module. */
const wobbleOf = (r: number, c: number) => (((r * 73856093) ^ (c * 19349663)) >>> 0) / 4294967296;

function drawCode(canvas: Canvas, d: Drawing): void {
  const { symbol, layout, palette } = d;
  const n = symbol.size;
  const roles = rolesOf(symbol);
  const inks = inksOf(d.qrw);
  const dark = (r: number, c: number) => r >= 0 && c >= 0 && r < n && c < n && symbol.dark[r * n + c] === 1;
  const neighbours = new Uint8Array(n * n);
  for (let r = 0; r < n; r += 1)
    for (let c = 0; c < n; c += 1)
      neighbours[r * n + c] =
        (dark(r - 1, c) ? UP : 0) |
        (dark(r + 1, c) ? DOWN : 0) |
        (dark(r, c - 1) ? LEFT : 0) |
        (dark(r, c + 1) ? RIGHT : 0);
  // With an image, only the middle of each data module carries the code; qrw widens it.
  const core = 0.42 + 0.2 * Math.min(1, Math.max(0, (d.qrw - 1.5) / 1.5));
  const side = layout.module * (n + 2 * layout.quiet);
  const data = canvas.data;
  for (let py = 0; py < side; py += 1) {
    const y = layout.y + py;
    const my = (py + 0.5) / layout.module - layout.quiet;
    const r = Math.floor(my);
    const v = my - r;
    for (let px = 0; px < side; px += 1) {
      const x = layout.x + px;
      const o = (y * canvas.width + x) * 4;
      const cr = data[o] ?? 0;
      const cg = data[o + 1] ?? 0;
      const cb = data[o + 2] ?? 0;
      const mx = (px + 0.5) / layout.module - layout.quiet;
      const c = Math.floor(mx);
      const u = mx - c;
      if (r < 0 || c < 0 || r >= n || c >= n) {
        // Quiet zone: light, with texture that never darkens it past the light ink's level.
        const jitter = d.noise > 0 ? d.noise * 0.1 * d.random() : 0;
        paint(data, o, cr, cg, cb, palette.paper, 0.5 + d.noise * 0.2, inks.light - jitter);
        continue;
      }
      const role = roles[r * n + c] ?? 0;
      let ink: boolean;
      if (role >= 1 && role <= 3) {
        const [fr, fc] = symbol.finders[role - 1] ?? [0, 0];
        ink = inFinder(d.finders[role - 1] ?? 'square', c - fc + u, r - fr + v);
      } else if (role >= 4) {
        const [ar, ac] = symbol.alignments[role - 4] ?? [0, 0];
        ink = inAlignment(d.alignments[role - 4] ?? 'square', c - ac + u, r - ar + v);
      } else if (
        d.halftone &&
        symbol.fixed[r * n + c] !== 1 &&
        (Math.abs(u - 0.5) > core / 2 || Math.abs(v - 0.5) > core / 2)
      ) {
        // Outside the core the image shows in continuous tone, its luminance kept on the module's
        // side of the middle with a margin, so each module still averages clearly dark or light.
        const tone = luminance(cr, cg, cb);
        const target = dark(r, c) ? inks.dark + (0.48 - inks.dark) * tone : 0.52 + (inks.light - 0.52) * tone;
        paint(data, o, cr, cg, cb, dark(r, c) ? palette.ink : palette.paper, 0, target);
        continue;
      } else {
        ink =
          dark(r, c) &&
          (d.halftone ? true : inModule(d.style, u, v, neighbours[r * n + c] ?? 0, wobbleOf(r, c)));
      }
      // Satin stitch: threads on the diagonal, every one still dark.
      const thread = d.threads && ink && (px + py) % 4 < 2 ? 0.6 : 1;
      if (ink) paint(data, o, cr, cg, cb, palette.ink, 0.45, inks.dark * thread);
      else paint(data, o, cr, cg, cb, palette.paper, 0.55, inks.light);
    }
  }
}

/** Materials whose ground shows in continuous tone, as a picture does. */
const PICTURE_GROUNDS: readonly (Material | undefined)[] = ['ink', 'marble'];

/** The least contrast a code over a content image is drawn with. */
const BLENDED_QRW = 1.75;

/** Module shapes need room: below this many pixels a module is drawn square. */
const SHAPED_FROM = 4;

/**
 * How hard a render leans toward scanning. The request's own settings come first; when the
 * result does not read back, the next attempt raises contrast, calms the quiet zone and, last,
 * draws plain square markers and modules.
 */
interface Firmness {
  qrwAtLeast: number;
  noiseScale: number;
  plain: boolean;
}

const ATTEMPTS: readonly Firmness[] = [
  { qrwAtLeast: 0, noiseScale: 1, plain: false },
  { qrwAtLeast: 2.5, noiseScale: 0.5, plain: false },
  { qrwAtLeast: 3, noiseScale: 0, plain: true },
];

export class Unscannable extends Error {}

/** The canvas read back by a decoder, as a phone would: the payload, or nothing. */
function readsBack(canvas: Canvas, payload: string): boolean {
  const data = new Uint8ClampedArray(canvas.data.buffer, canvas.data.byteOffset, canvas.data.byteLength);
  return jsQR(data, canvas.width, canvas.height)?.data === payload;
}

function draw(
  request: QrArtRequest,
  symbol: QrSymbol,
  payload: string,
  firm: Firmness,
  things: Things,
): { canvas: Canvas; layout: Layout } {
  const layout = layoutOf(
    symbol.size,
    request.aspectRatio,
    request.position ?? 'center',
    request.paddingLevel ?? 0,
  );
  // Every attempt starts from the same seed: the art is the same, only the code firmer.
  const random = seeded(hashOf(payload, request.seed));
  const look = lookOf(request.prompt);
  const named = paletteOf({
    prompt: request.prompt,
    negativePrompt: request.negativePrompt,
    preset: request.preset,
    pattern: request.pattern,
    seed: request.seed,
  });
  // A material sets what the modules lean to; the prompt's colours still tint its texture.
  const palette: Palette = look ? { ...named, ink: look.ink, paper: look.paper } : named;
  const canvas = canvasOf(layout.width, layout.height);
  // steps 10–20 → 2–5 octaves of detail in the art.
  const detail = 2 + Math.floor(((request.steps ?? 15) - 10) / 3);
  const grid = {
    x: layout.x + layout.quiet * layout.module,
    y: layout.y + layout.quiet * layout.module,
    module: layout.module,
  };
  // The prompt's things show in continuous tone around the modules' cores, as an image does; so
  // do the materials whose ground is a picture in itself (an ink wash, veined marble).
  const pictured = !request.image && (things.drawn.length > 0 || PICTURE_GROUNDS.includes(look?.material));
  if (request.image) cover(canvas, request.image);
  else if (look) paintTexture(canvas, look, palette, random, grid, things.drawn.length === 0);
  else paintBackground(canvas, palette, random, detail);
  if (pictured) drawThings(canvas, things, look, grid);
  const choose = <T>(value: T | 'random' | undefined, all: readonly T[], fallback: T) =>
    value === 'random' ? pick(random, all) : (value ?? fallback);
  // Shapes need room, and around markers a blended image or a picture of the prompt's things
  // is busy enough for scanline decoders (zbar) to miss round ones: both get squares.
  const shaped = layout.module >= SHAPED_FROM && !firm.plain;
  const markers = shaped && request.image === undefined && !pictured;
  drawCode(canvas, {
    symbol,
    layout,
    palette,
    style: shaped ? (request.pixelStyle ?? look?.module ?? 'square') : 'square',
    threads: look?.threads ?? false,
    finders: symbol.finders.map(() =>
      markers ? choose(request.markerShape, MARKERS, look?.finder ?? 'square') : 'square',
    ),
    alignments: symbol.alignments.map(() =>
      markers ? choose(request.subMarker, SUB_MARKERS, look?.alignment ?? 'square') : 'square',
    ),
    noise: (request.paddingNoise ?? 0) * firm.noiseScale,
    // Over an arbitrary image, the lowest contrasts lost codes to scanline decoders (zbar).
    qrw: Math.max(request.qrw ?? 2.25, firm.qrwAtLeast, request.image || pictured ? BLENDED_QRW : 0),
    halftone: request.image !== undefined || pictured,
    random,
  });
  return { canvas, layout };
}

export function renderQrArt(request: QrArtRequest): QrArt {
  const payload = payloadOf(request.type, request.content);
  const symbol = rotate(encode(payload, request.ecl), request.rotate ?? 0);
  const things = request.image ? { drawn: [], unknown: [] } : thingsOf(request.prompt);
  for (const firm of ATTEMPTS) {
    const { canvas, layout } = draw(request, symbol, payload, firm, things);
    if (readsBack(canvas, payload)) {
      return {
        png: encodePng(canvas),
        material: lookOf(request.prompt)?.material,
        drawn: things.drawn.map((d) => d.noun),
        unknownNouns: things.unknown,
        standIns: things.drawn.flatMap(({ noun, as }) => (as ? [{ noun, as }] : [])),
        width: layout.width,
        height: layout.height,
        seed: request.seed,
        payload,
      };
    }
  }
  throw new Unscannable(
    `no rendering of this request read back as its content after ${ATTEMPTS.length} attempts`,
  );
}
