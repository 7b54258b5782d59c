/**
 * The glyph atlas kept on disk between processes: rendering 6763 hanzi per font takes seconds of
 * CPU, which every worker thread would otherwise pay on its first card. The file's name holds a
 * digest of what the atlas depends on (the fonts' paths, sizes and times, the grid's size and the
 * rendering's version), so a changed font or renderer makes a new file rather than reading a
 * stale one. A file that cannot be read or written only costs the rendering again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GRID, type GlyphTemplate } from './glyph-grid.js';

const CELLS = GRID * GRID;

/** `$XDG_CACHE_HOME/switchyard`, else `~/.cache/switchyard`; the system's temp folder without a home. */
function cacheFolder(): string {
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), '.cache') : tmpdir());
  return join(base, 'switchyard');
}

/** The file that holds the atlas of these fonts rendered by this `version` of the renderer. */
export function atlasFile(fonts: readonly string[], version: string): string {
  const hash = createHash('sha256').update(`${version} ${GRID}`);
  for (const font of fonts) {
    const stat = statSync(font, { throwIfNoEntry: false });
    hash.update(`\n${font} ${stat?.size} ${stat?.mtimeMs}`);
  }
  return join(cacheFolder(), `glyph-atlas-${hash.digest('hex').slice(0, 16)}.bin`);
}

/**
 * Layout: count (uint32), then each template's char code (uint16: GB 2312 hanzi are all in the
 * basic plane), aspect (float32) and cells (GRID² float32), each in its own array.
 */
export function saveAtlas(file: string, templates: readonly GlyphTemplate[]): void {
  const count = templates.length;
  const codes = new Uint16Array(count);
  const aspects = new Float32Array(count);
  const cells = new Float32Array(count * CELLS);
  templates.forEach(({ char, grid }, i) => {
    codes[i] = char.charCodeAt(0);
    aspects[i] = grid.aspect;
    cells.set(grid.cells, i * CELLS);
  });
  const header = Buffer.alloc(4);
  header.writeUInt32LE(count);
  // Padding keeps the float arrays 4-byte aligned when read back in place.
  const pad = Buffer.alloc((4 - (codes.byteLength % 4)) % 4);
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    // Written whole under another name, then renamed: another process never reads half a file.
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(
      partial,
      Buffer.concat([
        header,
        Buffer.from(codes.buffer),
        pad,
        Buffer.from(aspects.buffer),
        Buffer.from(cells.buffer),
      ]),
    );
    renameSync(partial, file);
  } catch {
    // A read-only or full disk: the next process renders the atlas again.
  }
}

/** The atlas saved in `file`, or undefined when there is none or it does not hold a whole one. */
export function loadAtlas(file: string): GlyphTemplate[] | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length < 4) return undefined;
  const count = bytes.readUInt32LE(0);
  const codesBytes = count * 2;
  const pad = (4 - (codesBytes % 4)) % 4;
  if (bytes.length !== 4 + codesBytes + pad + count * 4 + count * CELLS * 4) return undefined;
  // Copied out of the file's buffer, whose offset need not be aligned for float arrays.
  const copy = new Uint8Array(bytes.length - 4);
  copy.set(bytes.subarray(4));
  const codes = new Uint16Array(copy.buffer, 0, count);
  const aspects = new Float32Array(copy.buffer, codesBytes + pad, count);
  const cells = new Float32Array(copy.buffer, codesBytes + pad + count * 4, count * CELLS);
  return Array.from({ length: count }, (_, i) => ({
    char: String.fromCharCode(codes[i]!),
    grid: { aspect: aspects[i]!, cells: cells.subarray(i * CELLS, (i + 1) * CELLS) },
  }));
}
