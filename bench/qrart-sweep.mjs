// The full QR art sweep: for each seed, 120 random combinations of every /qrart/tasks option
// rendered in-process and read back by jsQR, ZXing and zbarimg (test/qrart/sweep.ts, of which the
// test suite runs a 40-case sample). Reports each decoder's read rate per seed and in all, and
// whether TooDense fell exactly where the layout rule predicts.
// Usage: node --import tsx bench/qrart-sweep.mjs [--seeds 20250611,7,99] [--cases 120]
import { parseArgs } from 'node:util';
import { decoderRows, summary, sweep } from '../test/qrart/sweep.ts';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '20250611,7,99' },
    cases: { type: 'string', default: '120' },
  },
});
const seeds = values.seeds.split(',').map(Number);
const cases = Number(values.cases);

const runs = [];
const totals = new Map();
for (const seed of seeds) {
  const report = await sweep(seed, cases);
  console.log(`${summary(report)}\n`);
  for (const [name, t] of report.tallies) {
    const total = totals.get(name) ?? { decoded: 0, attempted: 0 };
    total.decoded += t.decoded;
    total.attempted += t.attempted;
    totals.set(name, total);
  }
  runs.push({
    seed,
    cases: report.cases,
    rendered: report.renderMs.length,
    too_dense: report.dense,
    too_dense_as_predicted: report.denseMismatches.length === 0,
    errors: report.errors,
    payload_mismatches: report.payloadMismatches,
    render_ms_p50: report.renderMs[Math.floor(report.renderMs.length / 2)] ?? null,
    decoders: decoderRows(report),
    failures: Object.fromEntries([...report.tallies].map(([name, t]) => [name, t.failures])),
  });
}

console.log('All seeds:');
console.table(
  [...totals].map(([decoder, t]) => ({
    decoder,
    decoded: `${t.decoded}/${t.attempted}`,
    rate: `${((100 * t.decoded) / Math.max(1, t.attempted)).toFixed(1)}%`,
  })),
);
saveReport('qrart-sweep', {
  machine: machine(),
  at: new Date().toISOString(),
  cases_per_seed: cases,
  runs,
  totals: Object.fromEntries(totals),
});
