import { writeFileSync, mkdirSync } from 'node:fs';
import { makeFieldCard } from '/work/main/test/support/idcard-field-capture/index.ts';
import { read } from '/work/main/src/engines/idcard/steps.ts';
const FIELDS = ['name', 'sex', 'nation', 'birth', 'address', 'id_number'] as const;
mkdirSync('/tmp/fc', { recursive: true });
const from = Number(process.argv[2] ?? 0), to = Number(process.argv[3] ?? 40);
let ok = 0, total = 0;
for (let i = from; i < to; i++) {
  const card = makeFieldCard(90_000 + i);
  const r = await read(card.image);
  const wrong = FIELDS.filter((f) => (r.fields as any)[f] !== (card.truth as any)[f]);
  ok += FIELDS.length - wrong.length; total += FIELDS.length;
  if (wrong.length) console.log(i, card.capture, JSON.stringify(card.surface).slice(0, 40), 'wrong:', wrong.join(','));
}
console.log('exact', (ok / total * 100).toFixed(1) + '%');
