/**
 * The 民族 value checked against its print: each of the 56 groups' names is laid over the line
 * (its ink shared out into as many characters as the name has) and each character's cell is
 * compared with that character's glyphs in the fonts installed. A misread character leaves the
 * recognised text at equal distance from many one-character names (满, 回, 苗 and 壮 as far from
 * it as 汉), which only the print can tell apart.
 */
import { NATIONS } from '../nations.js';
import type { GlyphTemplate } from './glyph-grid.js';
import { glyphAtlas } from './glyph-atlas.js';
import { glyphCells, inkMapOf } from './glyph-cells.js';
import { gridOf, inkExtent, likeness } from './glyph-grid.js';
import type { LineCrop } from './value-crops.js';

export interface PrintMatch {
  nation: string;
  /** The mean likeness of the name's characters to their cells, about 1 for the print itself. */
  likeness: number;
}

let byChar: Map<string, GlyphTemplate[]> | undefined;

function templatesOf(char: string): readonly GlyphTemplate[] {
  if (!byChar) {
    byChar = new Map();
    const wanted = new Set(NATIONS.flatMap((n) => [...n]));
    for (const t of glyphAtlas())
      if (wanted.has(t.char)) byChar.set(t.char, [...(byChar.get(t.char) ?? []), t]);
  }
  return byChar.get(char) ?? [];
}

/** How well each group's printed name fits the line, best first; empty without glyphs or ink. */
export function nationsByPrint(crop: LineCrop): PrintMatch[] {
  const map = inkMapOf(crop.raster, crop.tones);
  const matches: PrintMatch[] = [];
  for (const nation of NATIONS) {
    const chars = [...nation];
    // One character is all the ink of the line: cutting it by rows of ink would part 苗's grass
    // from its field.
    const whole = chars.length === 1 ? inkExtent(map) : undefined;
    const cells = whole ? [whole] : glyphCells(map, chars);
    if (!cells) continue;
    let sum = 0;
    for (const [k, char] of chars.entries()) {
      const extent = inkExtent(map, cells[k]);
      const templates = templatesOf(char);
      if (!extent || templates.length === 0) {
        sum = -Infinity;
        break;
      }
      const grid = gridOf(map, extent);
      sum += Math.max(...templates.map((t) => likeness(grid, t.grid)));
    }
    if (Number.isFinite(sum)) matches.push({ nation, likeness: sum / chars.length });
  }
  return matches.sort((a, b) => b.likeness - a.likeness);
}
