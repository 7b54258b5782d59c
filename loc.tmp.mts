import { readFileSync } from 'node:fs';
import { decodeImage } from '/work/main/src/engines/image-codec.ts';
import { locateCard } from '/work/main/src/engines/idcard/ocr/locate.ts';
import { readCard } from '/work/main/src/engines/idcard/ocr/read-card.ts';
import { makeFieldCard } from '/work/main/test/support/idcard-field-capture/index.ts';
for (const i of process.argv.slice(2).map(Number)) {
  const card = makeFieldCard(90_000 + i);
  const img = decodeImage(card.image, 50e6);
  const q = locateCard(img);
  const r = await readCard(img);
  console.log(i, img.width + 'x' + img.height, 'truth', JSON.stringify(card.corners).slice(0,140), '\n   found', q?.map((c) => `${c.x.toFixed(0)},${c.y.toFixed(0)}`).join(' '), 'labels', (r as any).labelsFound);
}
