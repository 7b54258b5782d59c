/**
 * Checking each Chinese character read against the print (analysis by synthesis): the model
 * confuses some characters with look-alikes consistently (凤 and 风, 晶 and 品) whatever view it
 * is shown, but the printed shape settles it. Each character's cell is compared with every
 * character of the glyph atlas, and the one read gives way only to one that matches the print
 * clearly better.
 */
import type { Reading } from './consensus.js';
import { glyphAtlas } from './glyph-atlas.js';
import { gridOf, inkExtent, likeness, type GlyphTemplate } from './glyph-grid.js';
import { glyphCells, inkMapOf } from './glyph-cells.js';
import type { LineCrop } from './value-crops.js';

/**
 * A likeness this high says the print is that character; below it the cell is more likely cut
 * wrong (a character split or joined with its neighbour) than the character misread.
 */
const SURE = 0.85;
/** How much better another character must match the print to replace the one read… */
const MARGIN = 0.06;
/**
 * …and how well at least: below SURE, since a printer's faux bold or condensed type leaves its
 * characters short of the atlas's shapes (雯 read as 要 matches 雯 at 0.83 and 要 at 0.57).
 */
const LIKELY = 0.8;
/** Strokes (一, 丨) have a box too thin for a grid to tell anything by. */
const FLATTEST = 3;

/** The line with each Chinese character that the print contradicts replaced by the one it shows. */
export function checkGlyphs(reading: Reading, crop: LineCrop): Reading {
  const atlas = glyphAtlas();
  if (atlas.length === 0) return reading;
  const printed = reading.filter((c) => c.char.trim() !== '');
  const map = inkMapOf(crop.raster, crop.tones);
  const cells = glyphCells(
    map,
    printed.map((c) => c.char),
  );
  if (!cells) return reading;
  const byChar = templatesByChar(atlas);
  const replaced = new Map<(typeof printed)[number], string>();
  printed.forEach((read, k) => {
    const own = byChar.get(read.char);
    const extent = own && inkExtent(map, cells[k]);
    if (!own || !extent) return;
    const grid = gridOf(map, extent);
    if (Math.abs(Math.log(grid.aspect)) > Math.log(FLATTEST)) return;
    const ownScore = Math.max(...own.map((t) => likeness(grid, t.grid)));
    if (ownScore >= SURE) return;
    let best: GlyphTemplate | undefined;
    let bestScore = Math.max(LIKELY, ownScore + MARGIN);
    for (const template of atlas) {
      const score = likeness(grid, template.grid);
      if (score > bestScore) {
        bestScore = score;
        best = template;
      }
    }
    if (best && best.char !== read.char) replaced.set(read, best.char);
  });
  return reading.map((c) => {
    const char = replaced.get(c);
    return char ? { ...c, char } : c;
  });
}

let index: Map<string, GlyphTemplate[]> | undefined;

function templatesByChar(atlas: readonly GlyphTemplate[]): Map<string, GlyphTemplate[]> {
  if (index) return index;
  index = new Map();
  for (const t of atlas) index.set(t.char, [...(index.get(t.char) ?? []), t]);
  return index;
}
