/**
 * The Chinese characters of GB 2312 (the 6763 hanzi every card value is written in) rendered in
 * each CJK font installed on the machine, as glyph grids: what a printed character is compared
 * with to tell look-alikes apart. Built on first use, then kept in memory and on disk (see
 * glyph-atlas-cache.ts), so that later threads and processes read it rather than render it.
 */
import { execFileSync } from 'node:child_process';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { atlasFile, loadAtlas, saveAtlas } from './glyph-atlas-cache.js';
import { gridOf, inkExtent, type GlyphTemplate } from './glyph-grid.js';

/** Size characters are rendered at: large enough that a grid cell covers several pixels. */
const EM = 40;
const PER_ROW = 40;
const PER_SHEET = PER_ROW * 25;
/** Names the rendering in the cache file's digest: change it whenever render() draws differently. */
const RENDERING = `sheet-v1 ${EM}px`;

/** The hanzi of GB 2312: rows 0xB0–0xF7, columns 0xA1–0xFE (row 0xD7 stops at 0xF9). */
function hanzi(): string[] {
  const decoder = new TextDecoder('gbk');
  const chars: string[] = [];
  for (let row = 0xb0; row <= 0xf7; row++)
    for (let col = 0xa1; col <= (row === 0xd7 ? 0xf9 : 0xfe); col++)
      chars.push(decoder.decode(Uint8Array.of(row, col)));
  return chars;
}

/** The font files fontconfig lists for Chinese; the first face of each is what Skia registers. */
function chineseFonts(): string[] {
  try {
    const listed = execFileSync('fc-list', [':lang=zh', 'file'], { encoding: 'utf8' });
    const files = listed
      .split('\n')
      .map((line) => line.replace(/:\s*$/, '').trim())
      .filter(Boolean);
    return [...new Set(files)].sort();
  } catch {
    return [];
  }
}

function render(chars: readonly string[], family: string): GlyphTemplate[] {
  const templates: GlyphTemplate[] = [];
  for (let start = 0; start < chars.length; start += PER_SHEET) {
    const sheet = chars.slice(start, start + PER_SHEET);
    const rows = Math.ceil(sheet.length / PER_ROW);
    const cell = Math.round(EM * 1.4);
    const canvas = createCanvas(PER_ROW * cell, rows * cell);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#000';
    ctx.font = `${EM}px "${family}"`;
    ctx.textBaseline = 'middle';
    sheet.forEach((char, i) =>
      ctx.fillText(char, (i % PER_ROW) * cell + EM / 4, Math.floor(i / PER_ROW) * cell + cell / 2),
    );
    // The raw pixels: getImageData copies and converts them, several times slower.
    const data = canvas.data();
    const { width, height } = canvas;
    const ink = new Float32Array(width * height);
    for (let i = 0; i < ink.length; i++) ink[i] = data[4 * i + 3]! / 255;
    const map = { width, height, ink };
    sheet.forEach((char, i) => {
      const left = (i % PER_ROW) * cell;
      const top = Math.floor(i / PER_ROW) * cell;
      const within = inkExtent(map, { left, right: left + cell, top, bottom: top + cell });
      if (!within) return;
      templates.push({ char, grid: gridOf(map, within) });
    });
  }
  return templates;
}

let atlas: GlyphTemplate[] | undefined;

/** Every hanzi of GB 2312 in every installed Chinese font (empty when there is none). */
export function glyphAtlas(): readonly GlyphTemplate[] {
  if (atlas) return atlas;
  const fonts = chineseFonts();
  if (fonts.length === 0) return (atlas = []);
  const file = atlasFile(fonts, RENDERING);
  atlas = loadAtlas(file);
  if (atlas) return atlas;
  const chars = hanzi();
  atlas = fonts.flatMap((font, k) => {
    const family = `glyph-atlas-${k}`;
    return GlobalFonts.registerFromPath(font, family) ? render(chars, family) : [];
  });
  saveAtlas(file, atlas);
  return atlas;
}
