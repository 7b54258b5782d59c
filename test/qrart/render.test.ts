/**
 * The renderer's options, each checked on its output: decoded by two independent decoders, and
 * measured where the option changes geometry (size, position, rotation, quiet zone) or colour.
 */
import { PNG } from 'pngjs';
import { describe, expect, it, vi } from 'vitest';
import { renderQrArt, TooDense, PRESETS, type QrArtRequest } from '../../src/engines/qr/index.js';
import { paletteOf } from '../../src/engines/paint/index.js';
import { decodeWithJsqr, decodeWithZxing } from '../support/qr-decoders.js';

// Some tests render and decode dozens of full-size codes with two decoders: seconds each on a
// machine busy with other test files, so they get more than the default.
vi.setConfig({ testTimeout: 120_000 });

const PIXEL_STYLES = ['square', 'rounded', 'dot', 'squircle', 'row', 'column'] as const;
const MARKER_SHAPES = ['square', 'circle', 'plus', 'box', 'octagon', 'tiny-plus'] as const;

const base: QrArtRequest = {
  content: 'https://switchyard.example/r',
  type: 'link',
  ecl: 'M',
  seed: 11,
  aspectRatio: '1:1',
  preset: 'paper',
  qrw: 3,
};

async function decodes(request: Partial<QrArtRequest>) {
  const art = renderQrArt({ ...base, ...request });
  expect(decodeWithJsqr(art.png), JSON.stringify(request)).toBe(art.payload);
  expect(await decodeWithZxing(art.png), JSON.stringify(request)).toBe(art.payload);
  return art;
}

/** The box around the code's dark pixels (on the pale, plain 'paper' preset only the code is dark). */
function darkBox(png: Buffer) {
  const image = PNG.sync.read(png);
  let [left, top, right, bottom] = [image.width, image.height, -1, -1];
  for (let y = 0; y < image.height; y += 1)
    for (let x = 0; x < image.width; x += 1) {
      const o = (y * image.width + x) * 4;
      const lum =
        (0.2126 * (image.data[o] ?? 0) +
          0.7152 * (image.data[o + 1] ?? 0) +
          0.0722 * (image.data[o + 2] ?? 0)) /
        255;
      if (lum < 0.3)
        [left, top, right, bottom] = [
          Math.min(left, x),
          Math.min(top, y),
          Math.max(right, x),
          Math.max(bottom, y),
        ];
    }
  return { left, top, right, bottom, width: image.width, height: image.height };
}

describe('QR art renderer', () => {
  it('draws every pixel style, finder and alignment shape so that both decoders read it', async () => {
    // Each style beside a finder shape four places on from it: with the presets' test below
    // (distances 0 to 3), 30 of the 36 pairs of a style and a shape are read.
    for (const [i, pixelStyle] of PIXEL_STYLES.entries())
      await decodes({
        pixelStyle,
        markerShape: MARKER_SHAPES[(i + 4) % MARKER_SHAPES.length],
        subMarker: 'circle',
        qrw: 1.5,
        preset: 'ocean',
      });
    for (const subMarker of ['square', 'circle', 'box', 'plus', 'random'] as const)
      await decodes({ subMarker, markerShape: 'random', ecl: 'H', content: 'x'.repeat(120) });
  });

  it('makes each aspect ratio at its size', async () => {
    const sizes = {
      '1:1': [768, 768],
      '16:9': [1008, 576],
      '9:16': [576, 1008],
      '4:3': [864, 672],
      '3:4': [672, 864],
    };
    for (const [aspectRatio, [width, height]] of Object.entries(sizes)) {
      const art = await decodes({ aspectRatio: aspectRatio as QrArtRequest['aspectRatio'] });
      expect([art.width, art.height]).toEqual([width, height]);
      expect(PNG.sync.read(art.png)).toMatchObject({ width, height });
    }
  });

  it('places the code where position says', async () => {
    const centre = (box: ReturnType<typeof darkBox>) => [
      (box.left + box.right) / 2 / box.width,
      (box.top + box.bottom) / 2 / box.height,
    ];
    const expected = {
      center: [0.5, 0.5],
      'top-left': [0.4, 0.4],
      'bottom-right': [0.6, 0.6],
      top: [0.5, 0.4],
      left: [0.4, 0.5],
    };
    for (const [position, [ex, ey]] of Object.entries(expected)) {
      const art = await decodes({ position: position as QrArtRequest['position'], aspectRatio: '16:9' });
      const [x, y] = centre(darkBox(art.png));
      if ((ex ?? 0) < 0.5) expect(x, position).toBeLessThan(0.45);
      else if ((ex ?? 0) > 0.5) expect(x, position).toBeGreaterThan(0.55);
      else expect(x, position).toBeCloseTo(0.5, 1);
      if ((ey ?? 0) < 0.5) expect(y, position).toBeLessThan(0.45);
      else if ((ey ?? 0) > 0.5) expect(y, position).toBeGreaterThan(0.55);
      else expect(y, position).toBeCloseTo(0.5, 1);
    }
  });

  it('turns the code by rotate, and every turn reads', async () => {
    const images = [];
    for (const rotate of [0, 90, 180, 270]) images.push((await decodes({ rotate })).png);
    expect(new Set(images.map((png) => png.toString('base64'))).size).toBe(4);
  });

  it('widens the quiet zone with padding_level and textures it with padding_noise', async () => {
    const widths = [];
    for (const paddingLevel of [0, 10, 20]) {
      const box = darkBox((await decodes({ paddingLevel })).png);
      widths.push(box.right - box.left);
    }
    expect(widths[0]).toBeGreaterThan(widths[1] ?? 0);
    expect(widths[1]).toBeGreaterThan(widths[2] ?? 0);
    const plain = renderQrArt({ ...base, paddingLevel: 10 });
    const noisy = await decodes({ paddingLevel: 10, paddingNoise: 1 });
    expect(noisy.png.equals(plain.png)).toBe(false);
  });

  it('is the same image for the same seed, another for another seed or prompt', () => {
    const a = renderQrArt({ ...base, preset: 'sunset' });
    expect(renderQrArt({ ...base, preset: 'sunset' }).png.equals(a.png)).toBe(true);
    expect(renderQrArt({ ...base, preset: 'sunset', seed: 12 }).png.equals(a.png)).toBe(false);
    expect(renderQrArt({ ...base, preset: 'sunset', prompt: 'purple' }).png.equals(a.png)).toBe(false);
    expect(renderQrArt({ ...base, preset: 'sunset', steps: 20 }).png.equals(a.png)).toBe(false);
  });

  it('knows 24 presets, and any other name gives a look of its own', async () => {
    expect(Object.keys(PRESETS)).toHaveLength(24);
    // The pixel styles and finder shapes take turns over the presets, each shape at a distance
    // of 0 to 3 places from its style.
    for (const [i, preset] of Object.keys(PRESETS).entries())
      await decodes({
        preset,
        qrw: 1.5,
        pixelStyle: PIXEL_STYLES[i % PIXEL_STYLES.length],
        markerShape: MARKER_SHAPES[(i + Math.floor(i / PIXEL_STYLES.length)) % MARKER_SHAPES.length],
      });
    await decodes({ preset: 'a name of my own', pattern: 'rings' });
  });

  it('takes hues from the prompt and keeps away from what the negative prompt names', () => {
    const hue = ([r, g, b]: number[]) => {
      const [max, min] = [Math.max(r ?? 0, g ?? 0, b ?? 0), Math.min(r ?? 0, g ?? 0, b ?? 0)];
      if (max === min) return undefined;
      const d = max - min;
      const h =
        max === r
          ? ((g ?? 0) - (b ?? 0)) / d
          : max === g
            ? 2 + ((b ?? 0) - (r ?? 0)) / d
            : 4 + ((r ?? 0) - (g ?? 0)) / d;
      return (h * 60 + 360) % 360;
    };
    const near = (h: number | undefined, target: number) =>
      h !== undefined && Math.abs(((h - target + 540) % 360) - 180) < 30;
    for (let seed = 1; seed <= 20; seed += 1) {
      const blue = paletteOf({ prompt: 'deep blue sea', seed });
      expect(
        blue.colors.some((c) => near(hue(c), 220)),
        `seed ${seed}`,
      ).toBe(true);
      const notRed = paletteOf({ prompt: 'red roses', negativePrompt: 'red', preset: 'sunset', seed });
      for (const color of notRed.colors) expect(near(hue(color), 0), `seed ${seed}`).toBe(false);
    }
  });

  it('trades colour for contrast by qrw', () => {
    const spread = (png: Buffer) => {
      const box = darkBox(png);
      const image = PNG.sync.read(png);
      let [low, high] = [1, 0];
      for (let y = box.top; y <= box.bottom; y += 3)
        for (let x = box.left; x <= box.right; x += 3) {
          const o = (y * image.width + x) * 4;
          const lum =
            (0.2126 * (image.data[o] ?? 0) +
              0.7152 * (image.data[o + 1] ?? 0) +
              0.0722 * (image.data[o + 2] ?? 0)) /
            255;
          [low, high] = [Math.min(low, lum), Math.max(high, lum)];
        }
      return high - low;
    };
    expect(spread(renderQrArt({ ...base, qrw: 3 }).png)).toBeGreaterThan(
      spread(renderQrArt({ ...base, qrw: 1.5 }).png) + 0.2,
    );
  });

  it('refuses content that cannot fit its canvas at a readable module size', () => {
    expect(() =>
      renderQrArt({
        ...base,
        content: 'x'.repeat(1200),
        ecl: 'H',
        aspectRatio: '16:9',
        position: 'top-left',
        paddingLevel: 20,
      }),
    ).toThrow(TooDense);
    // Content within the contract's limit, tipped over it by the scheme the type adds.
    expect(() =>
      renderQrArt({ ...base, type: 'email', content: `${'a'.repeat(1260)}@example.com`, ecl: 'H' }),
    ).toThrow(/^1279 bytes with the type's prefix are more than a QR code holds at ecl H \(1273\)$/);
  });
});
