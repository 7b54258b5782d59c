// Quality and speed of the local ID card engine on synthetic cards (test/support/idcard-specimen):
// field-level exact-match accuracy of OCR on clean and on degraded cards, precision and recall of
// each warning, portrait similarity for the same and for different persons, and the latency of
// reading one card on one core. Targets: ≥ 98% exact fields on clean cards, ≥ 90% on degraded
// ones, p50 ≤ 1.5 s on one core.
// Usage: npx tsc -p tsconfig.build.json && node --import tsx bench/identity.mjs [--clean 500]
//        [--degraded 500] [--per-warning 60] [--latency 40] [--workers 2]
// The engine runs from dist/, as the server runs it; the specimen maker is test code, loaded
// from its TypeScript source through tsx.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { IdcardPool } from '../dist/engines/idcard/pool.js';
import { drawPortrait, makeSpecimen } from '../test/support/idcard-specimen/index.ts';
import { encodePng } from '../dist/engines/image-codec.js';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    clean: { type: 'string', default: '500' },
    degraded: { type: 'string', default: '500' },
    'per-warning': { type: 'string', default: '60' },
    latency: { type: 'string', default: '40' },
    workers: { type: 'string', default: '2' },
  },
});
const CLEAN = Number(values.clean);
const DEGRADED = Number(values.degraded);
const PER_WARNING = Number(values['per-warning']);
const LATENCY_CARDS = Number(values.latency);
const WORKERS = Number(values.workers);
const TARGETS = { clean: 0.98, degraded: 0.9, p50_ms: 1500 };

const FIELDS = ['name', 'sex', 'nation', 'birth', 'address', 'id_number'];
/** Readable degradations: a card as phones, scanners and messengers deliver it. */
const DEGRADATIONS = [
  ['photo', 'rotation'],
  ['perspective'],
  ['photo', 'jpeg'],
  ['blur'],
  ['photo', 'noise'],
  ['photo', 'dim'],
  ['photocopy'],
  ['rotation', 'jpeg'],
  ['perspective', 'noise'],
];
/** Each warning and the degradations that should raise it. */
const WARNING_SETS = {
  copy: [['photocopy']],
  reshoot: [['moire'], ['glare']],
  ps: [['pasted']],
  border: [['cut']],
  temp_id: [['temporary']],
  blur: [['blur']],
};
const fired = (inspection) => ({
  copy: inspection.signals.copy,
  reshoot: inspection.signals.reshoot,
  ps: inspection.signals.ps,
  border: inspection.signals.border,
  temp_id: inspection.signals.temporary,
  blur: inspection.quality < 50,
});

const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const round = (x, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Reads every card with `workers` threads; specimens are drawn while earlier cards are read. */
async function inspectAll(pool, cards) {
  const results = new Array(cards.length);
  let next = 0;
  const lane = async () => {
    while (next < cards.length) {
      const index = next++;
      const specimen = makeSpecimen(cards[index]);
      const started = performance.now();
      const inspection = await pool.inspect(specimen.image);
      results[index] = { specimen, inspection, ms: performance.now() - started };
    }
  };
  await Promise.all(Array.from({ length: pool.size }, lane));
  return results;
}

function accuracy(results) {
  const perField = Object.fromEntries(FIELDS.map((f) => [f, 0]));
  for (const { specimen, inspection } of results)
    for (const f of FIELDS) if (inspection.fields[f] === specimen.truth[f]) perField[f] += 1;
  const total = FIELDS.reduce((sum, f) => sum + perField[f], 0);
  return {
    cards: results.length,
    exact_fields: round(total / (results.length * FIELDS.length), 4),
    per_field: Object.fromEntries(FIELDS.map((f) => [f, round(perField[f] / results.length, 4)])),
  };
}

const pool = new IdcardPool(WORKERS);
await pool.inspect(makeSpecimen({ seed: 1 }).image); // warm-up: worker start, Tesseract data in the page cache

const started = performance.now();
const clean = await inspectAll(
  pool,
  Array.from({ length: CLEAN }, (_, i) => ({ seed: 10_000 + i })),
);
const degraded = await inspectAll(
  pool,
  Array.from({ length: DEGRADED }, (_, i) => ({
    seed: 20_000 + i,
    degradations: DEGRADATIONS[i % DEGRADATIONS.length],
  })),
);
const warned = {};
for (const [warning, sets] of Object.entries(WARNING_SETS)) {
  warned[warning] = await inspectAll(
    pool,
    Array.from({ length: PER_WARNING }, (_, i) => ({
      seed: 30_000 + i,
      degradations: sets[i % sets.length],
    })),
  );
}
const readSeconds = (performance.now() - started) / 1000;

// Warnings: every card read counts, so a warning that fires on clean or other cards loses precision.
const everything = [...clean, ...degraded, ...Object.values(warned).flat()];
const warnings = {};
for (const warning of Object.keys(WARNING_SETS)) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const { specimen, inspection } of everything) {
    const expected = specimen.truth.warnings.includes(warning);
    const got = fired(inspection)[warning];
    if (got && expected) tp += 1;
    else if (got) fp += 1;
    else if (expected) fn += 1;
  }
  warnings[warning] = {
    positives: tp + fn,
    precision: tp + fp === 0 ? null : round(tp / (tp + fp)),
    recall: tp + fn === 0 ? null : round(tp / (tp + fn)),
  };
}

// Portraits: the card's cut portrait against a clean reference of the same or another person.
const same = [];
const different = [];
for (let i = 0; i < Math.min(100, clean.length); i++) {
  const { specimen, inspection } = clean[i];
  const other = clean[(i + 1) % clean.length].specimen.person.portraitSeed;
  const face = inspection.portrait ?? inspection.card;
  same.push(await pool.similarity(face, encodePng(drawPortrait(specimen.person.portraitSeed, 1))));
  different.push(await pool.similarity(face, encodePng(drawPortrait(other, 1))));
}
const summary = (xs, right) => ({
  pairs: xs.length,
  mean: round(xs.reduce((a, b) => a + b, 0) / xs.length, 2),
  min: round(Math.min(...xs), 2),
  max: round(Math.max(...xs), 2),
  right_side_of_70: round(xs.filter(right).length / xs.length),
});

// Latency on one core: one thread reading one card at a time, and the whole process (every
// thread, and the Tesseract it starts) held to the first core, so that Tesseract's work cannot
// spill onto the other one.
await pool.close();
execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', '0', String(process.pid)], {
  stdio: 'ignore',
});
const single = new IdcardPool(1);
const latencyCards = Array.from({ length: LATENCY_CARDS }, (_, i) => ({
  seed: 40_000 + i,
  degradations: i % 2 === 0 ? [] : DEGRADATIONS[i % DEGRADATIONS.length],
}));
const timed = [];
for (const card of latencyCards) {
  const specimen = makeSpecimen(card);
  const t = performance.now();
  await single.inspect(specimen.image);
  timed.push(performance.now() - t);
}
await single.close();

const report = {
  date: new Date().toISOString(),
  machine: machine(),
  targets: TARGETS,
  clean: accuracy(clean),
  degraded: { ...accuracy(degraded), degradations: DEGRADATIONS.map((d) => d.join('+')) },
  warnings,
  similarity: {
    threshold: 70,
    same_person: summary(same, (x) => x >= 70),
    different_person: summary(different, (x) => x < 70),
  },
  latency_one_core_ms: {
    cards: timed.length,
    p50: Math.round(percentile(timed, 0.5)),
    p90: Math.round(percentile(timed, 0.9)),
    max: Math.round(Math.max(...timed)),
  },
  read_seconds: round(readSeconds, 1),
  workers: WORKERS,
};

console.log(`ID card engine on ${report.machine.cpus} × ${report.machine.cpu}, node ${report.machine.node}`);
console.table({
  clean: { cards: report.clean.cards, exact_fields: report.clean.exact_fields, target: TARGETS.clean },
  degraded: {
    cards: report.degraded.cards,
    exact_fields: report.degraded.exact_fields,
    target: TARGETS.degraded,
  },
});
console.table({ clean: report.clean.per_field, degraded: report.degraded.per_field });
console.table(warnings);
console.table(report.similarity);
console.table({ 'one core': report.latency_one_core_ms });
saveReport('identity', report);
