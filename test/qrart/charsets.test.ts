/**
 * Text beyond ASCII: each code must read back as exactly its text with every decoder, including
 * zbar, which guesses a charset for bytes that no ECI designator names (UTF-8 CJK came out as
 * Shift-JIS). The contents, the pixel styles and the finder shapes take turns, so that every
 * content is read and every style and shape carries the ECI header and the data it shifts.
 */
import { describe, expect, it } from 'vitest';
import { QR_MARKER_SHAPES, QR_PIXEL_STYLES } from '../../src/contract/qrart.js';
import { renderQrArt, TooDense } from '../../src/engines/qr/index.js';
import { encode } from '../../src/engines/qr/matrix.js';
import { decodeWithJsqr, decodeWithZbar, decodeWithZxing } from '../support/qr-decoders.js';

const CONTENTS = [
  'https://switchyard.example/docs?page=2',
  'Crème brûlée à Paris',
  'Hello 世界',
  '二维码',
  '🎉 party 🎈',
  'Grüße, мир, こんにちは 🌈 #42',
];

/**
 * The ASCII content once, then the others in turn until every pixel style and finder shape has
 * carried an ECI header (there are more shapes than styles).
 */
const RENDERS = 1 + Math.max(QR_PIXEL_STYLES.length, QR_MARKER_SHAPES.length);
const contentOf = (k: number) => CONTENTS[k === 0 ? 0 : 1 + ((k - 1) % (CONTENTS.length - 1))] as string;

describe('QR art text encoding', () => {
  it('reads back ASCII, accented, CJK, emoji and mixed text exactly with jsQR, ZXing and zbar', async () => {
    const misread: string[] = [];
    for (let k = 0; k < RENDERS; k += 1) {
      const content = contentOf(k);
      const pixelStyle = QR_PIXEL_STYLES[k % QR_PIXEL_STYLES.length];
      const markerShape = QR_MARKER_SHAPES[k % QR_MARKER_SHAPES.length];
      const art = renderQrArt({
        content,
        type: 'text',
        ecl: 'M',
        seed: 1 + k,
        aspectRatio: '1:1',
        pixelStyle,
        markerShape,
        preset: 'ocean',
      });
      const readings = {
        jsQR: decodeWithJsqr(art.png),
        ZXing: await decodeWithZxing(art.png),
        // Undefined when zbarimg is missing: the Makefile installs it, and it is the decoder
        // that misreads codes without an ECI, so its absence fails the test.
        zbar: await decodeWithZbar(art.png),
      };
      for (const [decoder, text] of Object.entries(readings))
        if (text !== content)
          misread.push(
            `${decoder} read ${JSON.stringify(text)} for ${JSON.stringify(content)} (${pixelStyle}, ${markerShape})`,
          );
    }
    expect(misread).toEqual([]);
  }, 60_000);

  it('counts the 12 bits of the ECI header in the version and the capacity', () => {
    // Version 1 at H has 72 data bits: a byte segment's 12-bit header leaves 7 bytes, and the
    // ECI header before it one less ('é' is 2 bytes of UTF-8).
    expect(encode('abcdefg', 'H').version).toBe(1);
    expect(encode('ééé', 'H').version).toBe(1);
    expect(encode('éééx', 'H').version).toBe(2);
    // Version 40 at H: 1273 bytes of ASCII, 1272 of other text.
    expect(encode('é'.repeat(636), 'H').version).toBe(40);
    expect(() => encode(`${'é'.repeat(636)}x`, 'H')).toThrow(TooDense);
    expect(() => encode(`${'é'.repeat(636)}x`, 'H')).toThrow(/^1273 bytes .* at ecl H \(1272\)$/);
  });
});
