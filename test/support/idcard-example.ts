/**
 * The sample ID card of README.md and docs/identity.md, under examples/idcard/: a fictional
 * holder, her card as a JPEG scan and a reference portrait drawn by the specimen generator, and
 * the two request bodies carrying the card as a `data:` URL (files, because a card inline in
 * `curl -d '…'` passes the shell's limit on the length of an argument). Written by
 * `npx tsx scripts/make-idcard-example.ts`; the test of the example checks the request files
 * against the card.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePng } from '../../src/engines/image-codec.js';
import { jpegFile } from './idcard-specimen/degrade.js';
import { drawPortrait, makeSpecimen, printOf, type Person } from './idcard-specimen/index.js';

export const EXAMPLE_DIR = fileURLToPath(new URL('../../examples/idcard/', import.meta.url));

/** Nobody: a name, a street and a number made up for the example (330106 is Hangzhou's Xihu district). */
export const EXAMPLE_HOLDER: Person = {
  name: '林晓雯',
  sex: '女',
  nation: '汉',
  birth: '1992-08-16',
  address: '浙江省杭州市西湖区明珠路18号3号楼2单元501',
  idNumber: '330106199208160240',
  portraitSeed: 20_240_816,
};

/** Chooses the card's font, the printer's offsets and the printed photograph. */
const CARD_SEED = 1;
/** Every field still reads exactly at quality 20; 70 keeps the card clean to the eye at 75 KB. */
const CARD_QUALITY = 70;

export type ExampleFile = 'card.jpg' | 'portrait.png' | 'check-1e.json' | 'ocr.json';

/** The request bodies for a card: check-1e with the quality check, ocr naming the holder. */
export function exampleRequests(card: Buffer): Record<'check-1e.json' | 'ocr.json', string> {
  const image_url = `data:image/jpeg;base64,${card.toString('base64')}`;
  const file = (body: object) => `${JSON.stringify(body, null, 2)}\n`;
  return {
    'check-1e.json': file({ image_url, config: { quality: true } }),
    'ocr.json': file({ name: EXAMPLE_HOLDER.name, id_card: EXAMPLE_HOLDER.idNumber, image_url }),
  };
}

/** Renders the card and the portrait and writes them with the request bodies into EXAMPLE_DIR. */
export function writeExample(): Record<ExampleFile, number> {
  const card = jpegFile(makeSpecimen({ seed: CARD_SEED, person: EXAMPLE_HOLDER }).canvas, CARD_QUALITY);
  // Another photograph of her than the one printed on the card, as a registry holds.
  const portrait = encodePng(
    drawPortrait(EXAMPLE_HOLDER.portraitSeed, printOf(CARD_SEED).portraitVariant + 1),
  );
  const files = { 'card.jpg': card, 'portrait.png': portrait, ...exampleRequests(card) };
  mkdirSync(EXAMPLE_DIR, { recursive: true });
  const sizes = {} as Record<ExampleFile, number>;
  for (const [name, content] of Object.entries(files) as [ExampleFile, Buffer | string][]) {
    writeFileSync(join(EXAMPLE_DIR, name), content);
    sizes[name] = Buffer.byteLength(content);
  }
  return sizes;
}
