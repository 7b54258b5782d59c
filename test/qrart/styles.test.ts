/**
 * QR art in the prompt's style: every material, and the prompt's things drawn into the picture,
 * read back by jsQR, ZXing and zbar; an ink wash and marble veins that show; the same request
 * gives the same PNG.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderQrArt, type QrArtRequest } from '../../src/engines/qr/index.js';
import { MATERIALS } from '../../src/engines/qr/materials.js';
import { decodeImage } from '../../src/engines/image-codec.js';
import { decodeWithJsqr, decodeWithZbar, decodeWithZxing } from '../support/qr-decoders.js';

vi.setConfig({ testTimeout: 60_000 });

const PROMPTS: Record<(typeof MATERIALS)[number], string> = {
  ink: 'ink and paper',
  watercolour: 'watercolour whale',
  neon: 'neon city at night',
  marble: 'white marble',
  wood: 'carved wood with a guitar',
  mosaic: 'a mosaic of fish',
  glass: 'stained glass roses',
  embroidery: 'embroidery of a fox',
  pixel: 'pixel art mushroom',
};

const base: QrArtRequest = {
  content: 'https://switchyard.example/styles',
  type: 'link',
  ecl: 'M',
  seed: 4,
  aspectRatio: '1:1',
  paddingLevel: 5,
};

async function readBack(request: QrArtRequest) {
  const art = renderQrArt(request);
  expect(decodeWithJsqr(art.png), request.prompt).toBe(art.payload);
  expect(await decodeWithZxing(art.png), request.prompt).toBe(art.payload);
  const zbar = await decodeWithZbar(art.png);
  // zbarimg is a system tool; where it is missing the test says so rather than passing quietly.
  expect(zbar, `zbarimg on ${request.prompt}`).not.toBeUndefined();
  expect(zbar, request.prompt).toBe(art.payload);
  return art;
}

describe('QR art styles', () => {
  for (const material of MATERIALS) {
    it(`${material}: takes the look and reads back on three decoders`, async () => {
      const art = await readBack({ ...base, prompt: PROMPTS[material] });
      expect(art.material).toBe(material);
    });
  }

  it('draws the prompt’s things, reports the nouns it has no drawing for, and reads back', async () => {
    const art = await readBack({ ...base, ecl: 'L', prompt: 'a lighthouse and a zorblax on a rocky coast' });
    expect(art.drawn).toContain('lighthouse');
    expect(art.unknownNouns).toContain('zorblax');
  });

  it('shows an ink wash and marble veins in tones between the code’s dark and light', () => {
    // Without a picture, modules are near black or near white; the wash and the veins show in
    // the tones between, around each module's core.
    const between = (prompt: string) => {
      const image = decodeImage(renderQrArt({ ...base, prompt }).png, 1 << 24);
      let count = 0;
      for (let i = 0; i < image.data.length; i += 4) {
        const y = (0.2126 * image.data[i]! + 0.7152 * image.data[i + 1]! + 0.0722 * image.data[i + 2]!) / 255;
        if (y > 0.5 && y < 0.8) count += 1;
      }
      return count / (image.width * image.height);
    };
    expect(between('ink and paper')).toBeGreaterThan(0.15);
    expect(between('paper')).toBeGreaterThan(0.15);
    expect(between('white marble')).toBeGreaterThan(0.04);
  });

  it('gives the same PNG for the same request, another for another seed', () => {
    const request = { ...base, prompt: 'pixel art rocket' };
    expect(renderQrArt(request).png.equals(renderQrArt(request).png)).toBe(true);
    expect(renderQrArt({ ...request, seed: 5 }).png.equals(renderQrArt(request).png)).toBe(false);
  });
});
