/**
 * A card photographed on a table: placed at 60–85 % of the frame's width, turned a little (or up
 * to 8° for 'rotation'), seen at a slant for 'perspective', casting a soft shadow, with its
 * rounded corners. For 'cut' it overhangs the top or left edge of the frame, never so far that
 * the number line leaves it.
 */
import type { Canvas } from '../../../src/engines/canvas.js';
import type { Random } from '../../../src/engines/random.js';
import { CARD_HEIGHT, CARD_WIDTH, LAYOUT } from '../../../src/engines/idcard/layout.js';
import { homography, project, rectangle, type Point, type Quad } from '../../../src/engines/idcard/warp.js';
import { pixelsOf, surface } from './surface.js';
import { paintTable } from './table.js';

export const PHOTO_WIDTH = 1280;
export const PHOTO_HEIGHT = 960;
/** ISO/IEC 7810 ID-1 corner radius, 3.18 mm, on the canonical raster. */
const CORNER_RADIUS = 37;
const MARGIN = 24;

export interface Framing {
  rotation: boolean;
  perspective: boolean;
  cut: boolean;
}

export interface Photo {
  image: Canvas;
  /** The card's corners in the image. */
  quad: Quad;
  /** Image pixels per card pixel, along the card's top edge. */
  scale: number;
}

const signed = (random: Random, low: number, high: number) =>
  (random() < 0.5 ? -1 : 1) * (low + (high - low) * random());

/** The card's corners about the origin: scaled, keystoned by a camera tilt, then turned. */
function cornersOf(random: Random, framing: Framing, width: number, height: number): Point[] {
  const [w, h] = [width / 2, height / 2];
  const corners = [
    { x: -w, y: -h },
    { x: w, y: -h },
    { x: w, y: h },
    { x: -w, y: h },
  ];
  if (framing.perspective) {
    // Tilting the camera narrows the far edge and widens the near one.
    const across = signed(random, 0.03, 0.08) * width;
    const along = signed(random, 0.0, 0.06) * height;
    const shifts = [
      [across, along],
      [-across, -along * 0.25],
      [across * 0.25, along * 0.25],
      [-across * 0.25, -along],
    ];
    corners.forEach((corner, i) => {
      corner.x += shifts[i]![0]!;
      corner.y += shifts[i]![1]!;
    });
  }
  const angle = ((framing.rotation ? signed(random, 2, 8) : signed(random, 0, 2)) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  return corners.map(({ x, y }) => ({ x: x * cos - y * sin, y: x * sin + y * cos }));
}

const moved = (points: readonly Point[], dx: number, dy: number) =>
  points.map(({ x, y }) => ({ x: x + dx, y: y + dy })) as unknown as Quad;

/** Whether the number line of a card at `quad` lies inside the frame. */
function numberLineInside(quad: Quad): boolean {
  const box = LAYOUT.id_number.valueBox;
  const toImage = homography(rectangle(CARD_WIDTH, CARD_HEIGHT), quad);
  return [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x + box.width, box.y + box.height],
    [box.x, box.y + box.height],
  ].every(([x, y]) => {
    const p = project(toImage, x!, y!);
    return p.x >= 2 && p.y >= 2 && p.x <= PHOTO_WIDTH - 2 && p.y <= PHOTO_HEIGHT - 2;
  });
}

/** Where the card goes: inside the frame with a margin, or over its top or left edge. */
function place(random: Random, corners: readonly Point[], cut: boolean): Quad {
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const within = (low: number, high: number) => low + (high - low) * random();
  const dx = within(MARGIN - minX, PHOTO_WIDTH - MARGIN - maxX);
  const dy = within(MARGIN - minY, PHOTO_HEIGHT - MARGIN - maxY);
  if (!cut) return moved(corners, dx, dy);
  const overTop = random() < 0.6;
  let overhang = overTop ? within(0.06, 0.14) * (maxY - minY) : within(0.04, 0.08) * (maxX - minX);
  for (;;) {
    const quad = overTop ? moved(corners, dx, -minY - overhang) : moved(corners, -minX - overhang, dy);
    if (numberLineInside(quad) || overhang < 4) return quad;
    overhang /= 2;
  }
}

/** Draws the card through the homography onto the image, with antialiased rounded corners. */
function lay(image: Canvas, card: Canvas, quad: Quad, scale: number): void {
  const h = homography(quad, rectangle(card.width, card.height));
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(image.width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(image.height - 1, Math.ceil(Math.max(...ys)));
  const { data: src, width: cw, height: ch } = card;
  const dst = image.data;
  const [halfW, halfH] = [cw / 2, ch / 2];
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = Array.from(h);
  for (let y = y0; y <= y1; y++) {
    const py = y + 0.5;
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5;
      const w = h6! * px + h7! * py + h8!;
      const u = (h0! * px + h1! * py + h2!) / w;
      const v = (h3! * px + h4! * py + h5!) / w;
      // Signed distance to the rounded rectangle, in card pixels; negative inside.
      const qx = Math.abs(u - halfW) - (halfW - CORNER_RADIUS);
      const qy = Math.abs(v - halfH) - (halfH - CORNER_RADIUS);
      const distance =
        (qx > 0 || qy > 0 ? Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) : Math.max(qx, qy)) - CORNER_RADIUS;
      const alpha = Math.min(1, Math.max(0, 0.5 - distance * scale));
      if (alpha === 0) continue;
      const fx = Math.min(cw - 1, Math.max(0, u - 0.5));
      const fy = Math.min(ch - 1, Math.max(0, v - 0.5));
      const cx = Math.min(cw - 2, Math.floor(fx));
      const cy = Math.min(ch - 2, Math.floor(fy));
      const ax = fx - cx;
      const ay = fy - cy;
      const i00 = (cy * cw + cx) * 4;
      const i01 = i00 + cw * 4;
      const o = (y * image.width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const top = src[i00 + c]! + (src[i00 + 4 + c]! - src[i00 + c]!) * ax;
        const bottom = src[i01 + c]! + (src[i01 + 4 + c]! - src[i01 + c]!) * ax;
        const value = top + (bottom - top) * ay;
        dst[o + c] = alpha === 1 ? value + 0.5 : dst[o + c]! + (value - dst[o + c]!) * alpha + 0.5;
      }
    }
  }
}

export function photograph(card: Canvas, random: Random, framing: Framing): Photo {
  const scale = (PHOTO_WIDTH * (0.6 + 0.25 * random())) / CARD_WIDTH;
  const quad = place(
    random,
    cornersOf(random, framing, CARD_WIDTH * scale, CARD_HEIGHT * scale),
    framing.cut,
  );

  // The table and the card's shadow are painted at half resolution: the camera focuses on the
  // card, so they are soft anyway, and they cost a quarter as much.
  const table = surface(PHOTO_WIDTH / 2, PHOTO_HEIGHT / 2);
  paintTable(table, random);
  const { ctx } = table;
  // Only the shadow lands on the table: the shape itself is drawn a long way off the frame.
  const away = PHOTO_WIDTH * 2;
  ctx.shadowColor = 'rgba(0,0,0,0.45)';
  ctx.shadowBlur = 7 + 6 * random();
  ctx.shadowOffsetX = away + 1.5 + 4 * random();
  ctx.shadowOffsetY = 2 + 4 * random();
  ctx.fillStyle = 'rgb(0,0,0)';
  ctx.beginPath();
  quad.forEach(({ x, y }, i) =>
    i === 0 ? ctx.moveTo(x / 2 - away, y / 2) : ctx.lineTo(x / 2 - away, y / 2),
  );
  ctx.closePath();
  ctx.fill();
  const drawn = surface(PHOTO_WIDTH, PHOTO_HEIGHT);
  drawn.ctx.drawImage(table.skia, 0, 0, PHOTO_WIDTH, PHOTO_HEIGHT);

  const image = pixelsOf(drawn);
  lay(image, card, quad, scale);
  return { image, quad, scale: Math.hypot(quad[1].x - quad[0].x, quad[1].y - quad[0].y) / CARD_WIDTH };
}
