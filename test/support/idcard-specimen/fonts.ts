/**
 * The typefaces a card can be printed in. The three WenQuanYi Zen Hei faces share one font
 * collection; Skia registers only the first face of a collection, so each face is cut out of it
 * into a font of its own (the tables are shared, so a face is its table directory plus the
 * tables it names) and registered under its family name on first use.
 */
import { readFileSync } from 'node:fs';
import { GlobalFonts } from '@napi-rs/canvas';

const COLLECTION = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';

/** Family names in the collection's face order. */
export const CARD_FONTS = ['WenQuanYi Zen Hei', 'WenQuanYi Zen Hei Mono', 'WenQuanYi Zen Hei Sharp'] as const;
export type CardFont = (typeof CARD_FONTS)[number];

/**
 * The number line is printed in a monospaced Latin face; DejaVu Sans Mono comes with fontconfig
 * on Debian, and the collection's monospaced face stands in where it is missing.
 */
export const NUMBER_FONT = '"DejaVu Sans Mono", "WenQuanYi Zen Hei Mono"';

const registered = new Set<string>();

/** Face `index` of an OpenType collection as a standalone font file. */
function faceOf(collection: Buffer, index: number): Buffer {
  const start = collection.readUInt32BE(12 + 4 * index);
  const tables = collection.readUInt16BE(start + 4);
  const directory = 12 + 16 * tables;
  const records = Array.from({ length: tables }, (_, k) => {
    const at = start + 12 + 16 * k;
    return { at, offset: collection.readUInt32BE(at + 8), length: collection.readUInt32BE(at + 12) };
  });
  const padded = (length: number) => (length + 3) & ~3;
  const font = Buffer.alloc(records.reduce((size, r) => size + padded(r.length), directory));
  collection.copy(font, 0, start, start + 12);
  let offset = directory;
  records.forEach((record, k) => {
    collection.copy(font, 12 + 16 * k, record.at, record.at + 16);
    font.writeUInt32BE(offset, 12 + 16 * k + 8);
    collection.copy(font, offset, record.offset, record.offset + record.length);
    offset += padded(record.length);
  });
  return font;
}

/** Makes `family` available to Skia and returns it quoted for a CSS font string. */
export function cardFont(family: string): string {
  const index = CARD_FONTS.indexOf(family as CardFont);
  if (index < 0) throw new RangeError(`unknown card font "${family}"; one of: ${CARD_FONTS.join(', ')}`);
  if (!registered.has(family)) {
    if (GlobalFonts.register(faceOf(readFileSync(COLLECTION), index), family) == null)
      throw new Error(`the font collection ${COLLECTION} has no usable face "${family}"`);
    registered.add(family);
  }
  return `"${family}"`;
}
