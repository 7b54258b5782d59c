/**
 * The symbol as a grid of modules, with what each module is for: finder and alignment patterns
 * are drawn as markers, the rest (data, timing, format) as pixels. ASCII text is encoded by the
 * `qrcode` package (ISO/IEC 18004, the shortest mix of numeric, alphanumeric and byte segments,
 * the best mask). Other text is UTF-8 in byte mode behind an ECI designator 26 that says so, by
 * `lean-qr`: `qrcode` has no ECI segment, and without one decoders guess the charset of the
 * bytes (zbar reads UTF-8 CJK as Shift-JIS).
 */
import { createRequire } from 'node:module';
import { correction, generate, mode } from 'lean-qr';
import QRCode from 'qrcode';
import { capacityOf, isAscii, type Ecl } from './capacity.js';
import { TooDense } from './layout.js';

const require = createRequire(import.meta.url);
// The package computes alignment centres per version but exports them only from this module.
const alignment = require('qrcode/lib/core/alignment-pattern') as {
  getPositions(version: number): [number, number][];
};

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
  const capacity = capacityOf(payload, ecl);
  if (bytes > capacity) {
    // The contract counts the content; a scheme the type adds (mailto:, tel:) can tip it over.
    throw new TooDense(
      `${bytes} bytes with the type's prefix are more than a QR code holds at ecl ${ecl} (${capacity})`,
    );
  }
  const { version, dark, fixed } = isAscii(payload) ? asciiModules(payload, ecl) : utf8Modules(payload, ecl);
  const size = Math.sqrt(dark.length);
  const last = size - 7;
  return {
    size,
    version,
    dark,
    fixed,
    finders: [
      [0, 0],
      [0, last],
      [last, 0],
    ],
    alignments: alignment.getPositions(version).map(([row, col]) => [row - 2, col - 2]),
  };
}

type Modules = Pick<QrSymbol, 'version' | 'dark' | 'fixed'>;

function asciiModules(payload: string, ecl: Ecl): Modules {
  const qr = QRCode.create(payload, { errorCorrectionLevel: ecl });
  return {
    version: qr.version,
    dark: Uint8Array.from(qr.modules.data),
    fixed: Uint8Array.from(qr.modules.reservedBit),
  };
}

function utf8Modules(payload: string, ecl: Ecl): Modules {
  const level = correction[ecl];
  const code = generate(mode.utf8(payload), { minCorrectionLevel: level, maxCorrectionLevel: level });
  const n = code.size;
  const dark = new Uint8Array(n * n);
  for (let r = 0; r < n; r += 1) for (let c = 0; c < n; c += 1) dark[r * n + c] = code.get(c, r) ? 1 : 0;
  const version = (n - 17) / 4;
  // Function patterns depend on the version alone; mask 0 spares the search for the best one.
  const blank = QRCode.create('0', { version, errorCorrectionLevel: ecl, maskPattern: 0 }).modules;
  return { version, dark, fixed: Uint8Array.from(blank.reservedBit) };
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
