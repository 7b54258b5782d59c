/**
 * A sample of the QR art sweep (test/qrart/sweep.ts): random combinations of every /qrart/tasks
 * option, each rendered code read back, as exactly its payload, by every independent decoder. The
 * generator is seeded, so a run is reproducible; a failure lists the options of every case that
 * failed, to replay it with renderQrArt. bench/qrart-sweep.mjs runs the full sweep over several
 * seeds.
 *
 * QRART_SWEEP_SEED and QRART_SWEEP_CASES explore other combinations; the defaults are the test.
 */
import { describe, expect, it } from 'vitest';
import { DECODERS, summary, sweep, type Tally } from './sweep.js';

const SEED = Number(process.env.QRART_SWEEP_SEED ?? 20_250_611);
const CASES = Number(process.env.QRART_SWEEP_CASES ?? 40);

describe('QR art sweep', () => {
  it(`reads back ${CASES} random option combinations (seed ${SEED}) with every decoder`, async () => {
    const report = await sweep(SEED, CASES);
    console.log(summary(report));

    const replay = `(replay case #i with generateCases(${SEED}, i + 1)[i] from test/qrart/cases.ts)`;
    expect.soft(report.errors, `errors other than TooDense:\n${report.errors.join('\n')}`).toEqual([]);
    expect
      .soft(
        report.denseMismatches,
        `TooDense where the layout rule does not say so:\n${report.denseMismatches.join('\n')}`,
      )
      .toEqual([]);
    expect.soft(report.payloadMismatches, `payloads:\n${report.payloadMismatches.join('\n')}`).toEqual([]);
    for (const { name, required } of DECODERS) {
      // Every decoder is installed by `make`: a missing one is a failure, not a pass.
      expect.soft(report.missing.has(name), `${name} is not installed`).toBe(false);
      if (report.missing.has(name)) continue;
      const t = report.tallies.get(name) as Tally;
      // The rate, not the list, as the compared value: the message lists the cases once.
      expect
        .soft(
          t.decoded / t.attempted,
          `${name} read ${t.decoded}/${t.attempted}; it failed on these ${t.failures.length} option combinations ${replay}:\n${t.failures.join('\n')}\n`,
        )
        .toBeGreaterThanOrEqual(required);
    }
    expect(report.tallies.get('jsQR')?.attempted).toBe(report.renderMs.length);
    expect(report.tallies.get('ZXing')?.attempted).toBe(report.renderMs.length);
  }, 300_000);
});
