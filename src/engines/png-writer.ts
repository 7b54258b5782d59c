/**
 * PNG out: RGBA, 8 bits a channel, every row Paeth-filtered, deflated at level 3 with zlib's
 * run-length strategy (matches at distance 1, what Paeth's residues of painted art repeat; a
 * third of the default strategy's time for the same size), as pngjs wrote them. pngjs spent as
 * long filtering the rows in JavaScript as zlib spent deflating them (13 and 11 ms of a 768×768
 * QR render's 90); the filter is a native addon here (native/png.c) and takes about 1 ms.
 */
import { constants, crc32, deflateSync } from 'node:zlib';
import type { Canvas } from './canvas.js';
import { nativeAddon } from './native-addon.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  body.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

interface Png {
  /** Each row behind its filter byte (4, Paeth), the predictor's residues (PNG spec, 9.4). */
  paethRows(data: Uint8Array, width: number, height: number, out: Uint8Array): void;
}

export function encodePng(canvas: Canvas): Buffer {
  const { width, height, data } = canvas;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = new Uint8Array((width * 4 + 1) * height);
  nativeAddon<Png>('png').paethRows(data, width, height, rows);
  const pixels = deflateSync(rows, { level: 3, strategy: constants.Z_RLE });
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
