import { makeSpecimen } from '/work/main/test/support/idcard-specimen/index.ts';
import { read } from '/work/main/src/engines/idcard/steps.ts';
const cards = [];
for (let i = 0; i < 12; i++) { const s = makeSpecimen({ seed: 50000 + i, degradations: [] } as never) as any; cards.push(s.image); }
await read(cards[0]);
const ts = [];
for (const c of cards) { const t = performance.now(); await read(c); ts.push(performance.now() - t); }
ts.sort((a, b) => a - b); console.log('read ms p50', ts[6].toFixed(0), 'all', ts.map((x) => x.toFixed(0)).join(' '));
