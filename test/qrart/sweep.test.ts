/**
 * A sample of the QR art sweep (test/qrart/sweep.ts): random combinations of every /qrart/tasks
 * option, each rendered code read back, as exactly its payload, by every independent decoder. The
 * generator is seeded, so a run is reproducible; a failure lists the options of every case that
 * failed, to replay it with renderQrArt. bench/qrart-sweep.mjs runs the full sweep over several
 * seeds.
 *
 * QRART_SWEEP_SEED and QRART_SWEEP_CASES explore other combinations; the defaults are the test:
 * 16 cases of a seed whose sample draws every value of each option, checked below, and both
 * sides of TooDense.
 */
import { describe, expect, it } from 'vitest';
import {
  QR_ECLS,
  QR_MARKER_SHAPES,
  QR_PIXEL_STYLES,
  QR_POSITIONS,
  QR_SUB_MARKERS,
  QR_TYPES,
} from '../../src/contract/qrart.js';
import { CANVAS_SIZES } from '../../src/engines/qr/index.js';
import { fits, generateCases } from './cases.js';
import { DECODERS, summary, sweep, type Tally } from './sweep.js';

const DEFAULT_SEED = 89;
const DEFAULT_CASES = 16;
const SEED = Number(process.env.QRART_SWEEP_SEED ?? DEFAULT_SEED);
const CASES = Number(process.env.QRART_SWEEP_CASES ?? DEFAULT_CASES);

describe('QR art sweep', () => {
  it('samples, by default, every value of each option and codes on both sides of TooDense', () => {
    const cases = generateCases(DEFAULT_SEED, DEFAULT_CASES);
    // An option left out is drawn as its default.
    const domains = {
      type: [QR_TYPES, undefined],
      ecl: [QR_ECLS, undefined],
      aspectRatio: [Object.keys(CANVAS_SIZES), undefined],
      pixelStyle: [QR_PIXEL_STYLES, 'square'],
      markerShape: [QR_MARKER_SHAPES, 'square'],
      subMarker: [QR_SUB_MARKERS, 'square'],
      position: [QR_POSITIONS, 'center'],
      rotate: [[0, 90, 180, 270], 0],
      qrw: [[1.5, 3], 2.25],
      paddingLevel: [[0, 20], 0],
      paddingNoise: [[0, 1], 0],
    } as const;
    for (const [option, [values, fallback]] of Object.entries(domains)) {
      const drawn = new Set<unknown>(cases.map((c) => c.request[option as keyof typeof domains] ?? fallback));
      expect(
        [...values].filter((v) => !drawn.has(v)),
        option,
      ).toEqual([]);
    }
    expect(cases.filter((c) => !fits(c)).length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.request.image).length).toBeGreaterThan(2);
    expect(cases.some((c) => c.imageLabel?.endsWith('transparent'))).toBe(true);
  });

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
