/**
 * The glyph check of the ID-card reader against lines printed in the machine's Chinese fonts:
 * characters the model confuses with look-alikes are set right by their printed shape, and
 * characters read right are left alone.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Reading } from '../../src/engines/idcard/ocr/consensus.js';
import { atlasFile, loadAtlas, saveAtlas } from '../../src/engines/idcard/ocr/glyph-atlas-cache.js';
import { checkGlyphs } from '../../src/engines/idcard/ocr/glyph-check.js';
import { glyphCells, inkMapOf } from '../../src/engines/idcard/ocr/glyph-cells.js';
import { CARD_FONTS } from '../support/idcard-specimen/fonts.js';
import { printedLine } from '../support/idcard-specimen/printed-line.js';

// This file's atlas is rendered and saved here, not in the user's cache.
// The variable is put back afterwards: later files in this process keep the usual cache.
const cache = mkdtempSync(join(tmpdir(), 'glyph-cache-'));
const usualCache = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = cache;
afterAll(() => {
  if (usualCache === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = usualCache;
  rmSync(cache, { recursive: true, force: true });
});

const reading = (text: string): Reading => [...text].map((char) => ({ char, weight: 80 }));
const textOf = (line: Reading) => line.map((c) => c.char).join('');

describe('checking characters against the print', () => {
  it('finds one cell per character, a character of parts side by side included', () => {
    const crop = printedLine('川北路12号', CARD_FONTS[0]);
    const cells = glyphCells(inkMapOf(crop.raster, crop.tones), [...'川北路12号']);
    expect(cells).toHaveLength(6);
    const widths = cells!.map((c) => c.right - c.left);
    expect(Math.min(...widths.slice(0, 3))).toBeGreaterThan(25);
    expect(Math.max(...widths.slice(3, 5))).toBeLessThan(25);
    expect(glyphCells(inkMapOf(crop.raster, crop.tones), [...'川北路12号多出来的字'])).toBeUndefined();
  });

  for (const family of CARD_FONTS)
    it(`sets right the look-alikes the model confuses, in ${family}`, () => {
      for (const [misread, truth] of [
        ['东风埠', '东风巷'],
        ['于镭', '于鑫'],
        ['花赛镇', '花寨镇'],
      ] as const)
        expect(textOf(checkGlyphs(reading(misread), printedLine(truth, family)))).toBe(truth);
    });

  it('leaves a line read right as it is, spaces and digits included', () => {
    for (const text of ['王一兰', '云南省临沧市永德县南岗镇龙河村九组30号', '青海省海西蒙古族藏族自治州'])
      expect(textOf(checkGlyphs(reading(text), printedLine(text, CARD_FONTS[0])))).toBe(text);
    const spaced = [...reading('张三'), { char: ' ', weight: 50 }, ...reading('丰')];
    expect(checkGlyphs(spaced, printedLine('张三丰', CARD_FONTS[0]))).toEqual(spaced);
  });

  it('keeps the reading when the print cannot be cut into its characters', () => {
    const line = reading('东风埠二十号');
    expect(checkGlyphs(line, printedLine('东风巷', CARD_FONTS[0]))).toBe(line);
  });
});

describe('the glyph atlas kept on disk', () => {
  it('is saved on first use and read back whole', async () => {
    // A fresh copy of the module: another file in this process may have loaded the atlas already.
    vi.resetModules();
    const { glyphAtlas } = await import('../../src/engines/idcard/ocr/glyph-atlas.js');
    const atlas = glyphAtlas();
    expect(atlas.length).toBeGreaterThanOrEqual(6763);
    const saved = readdirSync(join(cache, 'switchyard'));
    expect(saved).toHaveLength(1);
    const loaded = loadAtlas(join(cache, 'switchyard', saved[0]!));
    expect(loaded).toHaveLength(atlas.length);
    for (const i of [0, 1234, atlas.length - 1]) {
      expect(loaded![i]!.char).toBe(atlas[i]!.char);
      expect(loaded![i]!.grid.aspect).toBeCloseTo(atlas[i]!.grid.aspect, 6);
      expect([...loaded![i]!.grid.cells]).toEqual([...atlas[i]!.grid.cells]);
    }
  });

  it('names a new file when the fonts or the rendering change', () => {
    const fonts = [join(cache, 'a.ttf')];
    writeFileSync(fonts[0]!, 'one');
    const first = atlasFile(fonts, 'v1');
    expect(atlasFile(fonts, 'v2')).not.toBe(first);
    writeFileSync(fonts[0]!, 'longer');
    expect(atlasFile(fonts, 'v1')).not.toBe(first);
  });

  it('reads a missing, cut or foreign file as no atlas', () => {
    const file = join(cache, 'round-trip.bin');
    expect(loadAtlas(file)).toBeUndefined();
    const cells = new Float32Array(256).map((_, i) => Math.sin(i));
    saveAtlas(file, [
      { char: '巷', grid: { aspect: 0.9, cells } },
      { char: '埠', grid: { aspect: 1.1, cells } },
      { char: '凤', grid: { aspect: 1, cells } },
    ]);
    expect(
      loadAtlas(file)
        ?.map((t) => t.char)
        .join(''),
    ).toBe('巷埠凤');
    writeFileSync(file, Buffer.from([3, 0, 0, 0, 1, 2, 3]));
    expect(loadAtlas(file)).toBeUndefined();
  });
});
