/**
 * The symbol as a grid of modules, with what each module is for: finder and alignment patterns
 * are drawn as markers, the rest (data, timing, format) as pixels. Encoding is the `qrcode`
 * package's (ISO/IEC 18004, byte mode for any text, the best mask).
 */
import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import { TooDense } from './layout.js';

const require = createRequire(import.meta.url);
// The package computes alignment centres per version but exports them only from this module.
const alignment = require('qrcode/lib/core/alignment-pattern') as {
  getPositions(version: number): [number, number][];
};

export type Ecl = 'L' | 'M' | 'Q' | 'H';

/** Bytes of a version-40 symbol in byte mode, the most any QR code holds. */
const CAPACITY: Readonly<Record<Ecl, number>> = { L: 2953, M: 2331, Q: 1663, H: 1273 };

export interface QrSymbol {
  size: number;
  version: number;
  /** 1 for a dark module, row by row. */
  dark: Uint8Array;
  /** 1 for a module of a function pattern (finder, separator, timing, alignment, format). */
  fixed: Uint8Array;
  /** Top-left module of each 7×7 finder pattern. */
  finders: [number, number][];
  /** Top-left module of each 5×5 alignment pattern. */
  alignments: [number, number][];
}

export function encode(payload: string, ecl: Ecl): QrSymbol {
  const bytes = Buffer.byteLength(payload);
  if (bytes > CAPACITY[ecl]) {
    // The contract counts the content; a scheme the type adds (mailto:, tel:) can tip it over.
    throw new TooDense(
      `${bytes} bytes with the type's prefix are more than a QR code holds at ecl ${ecl} (${CAPACITY[ecl]})`,
    );
  }
  const qr = QRCode.create(payload, { errorCorrectionLevel: ecl });
  const size = qr.modules.size;
  const last = size - 7;
  return {
    size,
    version: qr.version,
    dark: Uint8Array.from(qr.modules.data),
    fixed: Uint8Array.from(qr.modules.reservedBit),
    finders: [
      [0, 0],
      [0, last],
      [last, 0],
    ],
    alignments: alignment.getPositions(qr.version).map(([row, col]) => [row - 2, col - 2]),
  };
}

/** The symbol turned by a multiple of 90° clockwise: decoders read a code in any orientation. */
export function rotate(symbol: QrSymbol, degrees: number): QrSymbol {
  const turns = (((degrees / 90) % 4) + 4) % 4;
  let current = symbol;
  for (let i = 0; i < turns; i += 1) current = quarterTurn(current);
  return current;
}

function quarterTurn(symbol: QrSymbol): QrSymbol {
  const n = symbol.size;
  const turn = (grid: Uint8Array) => {
    const out = new Uint8Array(n * n);
    // (row, col) moves to (col, n - 1 - row).
    for (let r = 0; r < n; r += 1)
      for (let c = 0; c < n; c += 1) out[c * n + (n - 1 - r)] = grid[r * n + c] ?? 0;
    return out;
  };
  const box =
    (span: number) =>
    ([r, c]: [number, number]): [number, number] => [c, n - span - r];
  return {
    ...symbol,
    dark: turn(symbol.dark),
    fixed: turn(symbol.fixed),
    finders: symbol.finders.map(box(7)),
    alignments: symbol.alignments.map(box(5)),
  };
}
