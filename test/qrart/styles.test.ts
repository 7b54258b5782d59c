/**
 * QR art in the prompt's style: every material, and the prompt's things drawn into the picture,
 * read back by jsQR, ZXing and zbar; the same request gives the same PNG.
 */
import { describe, expect, it, vi } from 'vitest';
import { renderQrArt, type QrArtRequest } from '../../src/engines/qr/index.js';
import { MATERIALS } from '../../src/engines/qr/materials.js';
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

  it('gives the same PNG for the same request, another for another seed', () => {
    const request = { ...base, prompt: 'pixel art rocket' };
    expect(renderQrArt(request).png.equals(renderQrArt(request).png)).toBe(true);
    expect(renderQrArt({ ...request, seed: 5 }).png.equals(renderQrArt(request).png)).toBe(false);
  });
});
