/**
 * Finding a card the outline search cannot: a pale card turned 20° on a printed sheet as pale as
 * itself, where the card's edge is no step of brightness, only the end of the sheet's print; and
 * a card turned 25° on a dark table, beyond the ±15° the outline search once allowed.
 */
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { seeded } from '../../src/engines/random.js';
import { decodeImage } from '../../src/engines/image-codec.js';
import { locateCard } from '../../src/engines/idcard/ocr/locate.js';
import { locatePlainCard } from '../../src/engines/idcard/ocr/plain-region.js';

const [WIDTH, HEIGHT] = [1600, 1200];
const [CARD_W, CARD_H] = [900, 568];

/** A card-sized pale rectangle with a few dark lines of "text", turned `degrees` about (800, 600). */
function scene(surface: 'printed' | 'dark', degrees: number) {
  const random = seeded(7);
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = surface === 'printed' ? 'rgb(236,235,230)' : 'rgb(40,40,44)';
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  if (surface === 'printed') {
    ctx.fillStyle = 'rgba(60,60,60,0.6)';
    for (let y = 20; y < HEIGHT; y += 24)
      for (let x = 20; x < WIDTH - 20; x += 15) if (random() < 0.85) ctx.fillRect(x, y, 11, 8);
  }
  const angle = (degrees * Math.PI) / 180;
  ctx.save();
  ctx.translate(WIDTH / 2, HEIGHT / 2);
  ctx.rotate(angle);
  ctx.fillStyle = 'rgb(240,238,232)';
  ctx.fillRect(-CARD_W / 2, -CARD_H / 2, CARD_W, CARD_H);
  ctx.fillStyle = 'rgb(30,30,30)';
  for (let row = 0; row < 5; row++) ctx.fillRect(-CARD_W / 2 + 80, -CARD_H / 2 + 70 + row * 90, 420, 34);
  ctx.restore();
  const [c, s] = [Math.cos(angle), Math.sin(angle)];
  const corners = [
    [-CARD_W / 2, -CARD_H / 2],
    [CARD_W / 2, -CARD_H / 2],
    [CARD_W / 2, CARD_H / 2],
    [-CARD_W / 2, CARD_H / 2],
  ].map(([x, y]) => ({ x: WIDTH / 2 + x! * c - y! * s, y: HEIGHT / 2 + x! * s + y! * c }));
  return { image: decodeImage(canvas.toBuffer('image/png'), 50_000_000), corners };
}

const farthest = (quad: readonly { x: number; y: number }[], corners: readonly { x: number; y: number }[]) =>
  Math.max(...quad.map((p, i) => Math.hypot(p.x - corners[i]!.x, p.y - corners[i]!.y)));

describe('the card in a busy picture', () => {
  it('is the plain region a printed sheet leaves around it', () => {
    const { image, corners } = scene('printed', 20);
    const quad = locatePlainCard(image);
    expect(quad).not.toBeNull();
    // Each side is set out by a twentieth of the card's height: text may run close to an edge.
    expect(farthest(quad!, corners)).toBeLessThan(0.1 * CARD_H);
  });

  it('is the card, not the plain surface around it, where the surface is plain too', () => {
    const { image, corners } = scene('dark', 0);
    const quad = locatePlainCard(image);
    // The dark table reaches the frame all round the card: it is the surface.
    expect(quad).not.toBeNull();
    expect(farthest(quad!, corners)).toBeLessThan(0.1 * CARD_H);
  });

  it('is found by its outline turned 25°', () => {
    const { image, corners } = scene('dark', 25);
    const quad = locateCard(image);
    expect(quad).not.toBeNull();
    expect(farthest(quad!, corners)).toBeLessThan(4);
  });
});
