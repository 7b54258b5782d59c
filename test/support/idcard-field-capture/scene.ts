/**
 * What the card lies on: a wooden desk, a woven cloth, a dark table top, a sheet of printed
 * paper, or, for a scan, the scanner's lid.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { pick, type Random } from '../../../src/engines/random.js';

export type Surface = 'wood' | 'cloth' | 'dark table' | 'printed paper' | 'scanner lid';

export const PHONE_SURFACES: readonly Surface[] = ['wood', 'cloth', 'dark table', 'printed paper'];

export function drawSurface(surface: Surface, width: number, height: number, random: Random): Canvas {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const shade = (base: number, spread: number) => Math.round(base + (random() - 0.5) * spread);
  switch (surface) {
    case 'wood': {
      const [r, g, b] = [shade(150, 60), shade(100, 40), shade(60, 30)];
      ctx.fillStyle = `rgb(${r},${g},${b})`;
      ctx.fillRect(0, 0, width, height);
      for (let i = 0; i < 220; i += 1) {
        const y = random() * height;
        const k = 0.75 + random() * 0.4;
        ctx.strokeStyle = `rgba(${Math.round(r * k)},${Math.round(g * k)},${Math.round(b * k)},0.5)`;
        ctx.lineWidth = 1 + random() * 4;
        ctx.beginPath();
        ctx.moveTo(0, y);
        for (let x = 0; x <= width; x += 40) ctx.lineTo(x, y + Math.sin(x / (80 + random() * 40) + i) * 6);
        ctx.stroke();
      }
      break;
    }
    case 'cloth': {
      const hue = Math.floor(random() * 360);
      ctx.fillStyle = `hsl(${hue},${20 + random() * 40}%,${30 + random() * 40}%)`;
      ctx.fillRect(0, 0, width, height);
      ctx.lineWidth = 2;
      for (let x = 0; x < width; x += 5) {
        ctx.strokeStyle = `rgba(0,0,0,${0.05 + random() * 0.1})`;
        ctx.beginPath();
        ctx.moveTo(x, 0);
        ctx.lineTo(x, height);
        ctx.stroke();
      }
      for (let y = 0; y < height; y += 5) {
        ctx.strokeStyle = `rgba(255,255,255,${0.03 + random() * 0.08})`;
        ctx.beginPath();
        ctx.moveTo(0, y);
        ctx.lineTo(width, y);
        ctx.stroke();
      }
      break;
    }
    case 'dark table': {
      const g = ctx.createLinearGradient(0, 0, width, height);
      g.addColorStop(0, `rgb(${shade(45, 30)},${shade(45, 30)},${shade(50, 30)})`);
      g.addColorStop(1, `rgb(${shade(25, 20)},${shade(25, 20)},${shade(28, 20)})`);
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, width, height);
      break;
    }
    case 'printed paper': {
      ctx.fillStyle = `rgb(${shade(238, 20)},${shade(236, 20)},${shade(228, 20)})`;
      ctx.fillRect(0, 0, width, height);
      // Lines of small grey text-like marks: another document under the card.
      ctx.fillStyle = 'rgba(60,60,60,0.55)';
      const size = 10 + random() * 8;
      for (let y = size * 2; y < height; y += size * 1.8)
        for (let x = size * 2; x < width - size * 2; x += size * 1.1)
          if (random() < 0.85)
            ctx.fillRect(x, y - size * 0.7, size * 0.8, size * 0.8 * (0.4 + random() * 0.6));
      break;
    }
    case 'scanner lid': {
      const v = shade(244, 14);
      ctx.fillStyle = `rgb(${v},${v},${v + 2 > 255 ? 255 : v + 2})`;
      ctx.fillRect(0, 0, width, height);
      break;
    }
  }
  return canvas;
}

export function chooseSurface(random: Random): Surface {
  return pick(random, PHONE_SURFACES);
}
