/**
 * A sweep over random combinations of every /qrart/tasks option: each rendered code must read
 * back, as exactly its payload, with every independent decoder (jsQR, ZXing, and zbarimg when
 * the machine has it). The generator is seeded, so a run is reproducible; a failure lists the
 * options of every case that failed, to replay it with renderQrArt. A code that cannot fit
 * (TooDense) is expected exactly where the layout rule says so, and nowhere else.
 *
 * QRART_SWEEP_SEED and QRART_SWEEP_CASES explore other combinations; the defaults are the test.
 */
import { describe, expect, it } from 'vitest';
import { renderQrArt, TooDense, type QrArt } from '../../src/engines/qr/index.js';
import { decodeWithJsqr, decodeWithZbar, decodeWithZxing } from '../support/qr-decoders.js';
import { describeCase, fits, generateCases, type SweepCase } from './cases.js';

const SEED = Number(process.env.QRART_SWEEP_SEED ?? 20_250_611);
const CASES = Number(process.env.QRART_SWEEP_CASES ?? 120);

interface Decoder {
  name: string;
  decode: (png: Buffer) => Promise<string | null | undefined>;
  /** Share of the codes it must read. */
  required: number;
}

const DECODERS: Decoder[] = [
  { name: 'jsQR', decode: async (png) => decodeWithJsqr(png), required: 1 },
  { name: 'ZXing', decode: decodeWithZxing, required: 1 },
  // zbar's scanlines miss the odd code the two others read (over noisy images, big dot
  // modules): 115/115 with this seed, 117/119 and 115/116 with seeds 7 and 99. Its floor is
  // that measure, not the target of the other two.
  { name: 'zbarimg', decode: decodeWithZbar, required: 0.95 },
];

interface Tally {
  attempted: number;
  decoded: number;
  ms: number;
  failures: string[];
  /** Failures of cases with a content image. */
  blended: number;
}

const shown = (text: string | null) =>
  text === null ? 'nothing' : JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

describe('QR art sweep', () => {
  it(`reads back ${CASES} random option combinations (seed ${SEED}) with every decoder`, async () => {
    const cases = generateCases(SEED, CASES);
    const tallies = new Map<string, Tally>(
      DECODERS.map((d) => [d.name, { attempted: 0, decoded: 0, ms: 0, failures: [], blended: 0 }]),
    );
    const missing = new Set<string>();
    const denseMismatches: string[] = [];
    const payloadMismatches: string[] = [];
    const errors: string[] = [];
    const renderMs: number[] = [];
    let dense = 0;
    let blended = 0;

    async function decodeAll(c: SweepCase, art: QrArt): Promise<void> {
      for (const decoder of DECODERS) {
        const tally = tallies.get(decoder.name) as Tally;
        const t = performance.now();
        const text = await decoder.decode(art.png);
        if (text === undefined) {
          missing.add(decoder.name);
          continue;
        }
        tally.ms += performance.now() - t;
        tally.attempted += 1;
        if (text === art.payload) tally.decoded += 1;
        else {
          tally.failures.push(`${describeCase(c)} → read ${shown(text)}`);
          if (c.request.image) tally.blended += 1;
        }
      }
    }

    for (const c of cases) {
      const fit = fits(c);
      let art: QrArt;
      const started = performance.now();
      try {
        art = renderQrArt(c.request);
      } catch (error) {
        if (!(error instanceof TooDense)) {
          errors.push(`${String(error)}: ${describeCase(c)}`);
          continue;
        }
        dense += 1;
        if (fit) denseMismatches.push(`TooDense although it fits: ${describeCase(c)}`);
        continue;
      }
      renderMs.push(performance.now() - started);
      if (c.request.image) blended += 1;
      if (!fit) denseMismatches.push(`rendered although too dense: ${describeCase(c)}`);
      if (art.payload !== c.payload)
        payloadMismatches.push(
          `payload ${shown(art.payload)}, expected ${shown(c.payload)}: ${describeCase(c)}`,
        );
      await decodeAll(c, art);
    }

    renderMs.sort((a, b) => a - b);
    const rows = DECODERS.map(({ name }) => {
      const t = tallies.get(name) as Tally;
      return missing.has(name)
        ? { decoder: name, decoded: 'not installed', rate: '', 'of which blended': '', 'ms/decode': '' }
        : {
            decoder: name,
            decoded: `${t.decoded}/${t.attempted}`,
            rate: `${((100 * t.decoded) / Math.max(1, t.attempted)).toFixed(1)}%`,
            'of which blended': `${t.blended} (of ${blended} blended)`,
            'ms/decode': (t.ms / Math.max(1, t.attempted)).toFixed(0),
          };
    });
    console.log(
      [
        `QR art sweep, seed ${SEED}: ${cases.length} cases, ${renderMs.length} rendered, ${dense} TooDense (as predicted: ${denseMismatches.length === 0})`,
        `render ms: p50 ${(renderMs[Math.floor(renderMs.length / 2)] ?? 0).toFixed(0)}, max ${(renderMs.at(-1) ?? 0).toFixed(0)}`,
        ...formatTable(rows),
      ].join('\n'),
    );

    const replay = `(replay case #i with generateCases(${SEED}, i + 1)[i] from test/qrart/cases.ts)`;
    expect.soft(errors, `errors other than TooDense:\n${errors.join('\n')}`).toEqual([]);
    expect
      .soft(denseMismatches, `TooDense where the layout rule does not say so:\n${denseMismatches.join('\n')}`)
      .toEqual([]);
    expect.soft(payloadMismatches, `payloads:\n${payloadMismatches.join('\n')}`).toEqual([]);
    for (const { name, required } of DECODERS) {
      if (missing.has(name)) continue;
      const t = tallies.get(name) as Tally;
      // The rate, not the list, as the compared value: the message lists the cases once.
      expect
        .soft(
          t.decoded / t.attempted,
          `${name} read ${t.decoded}/${t.attempted}; it failed on these ${t.failures.length} option combinations ${replay}:\n${t.failures.join('\n')}\n`,
        )
        .toBeGreaterThanOrEqual(required);
    }
    // Every rendered code went to jsQR and ZXing, whatever the machine.
    expect(tallies.get('jsQR')?.attempted).toBe(renderMs.length);
    expect(tallies.get('ZXing')?.attempted).toBe(renderMs.length);
  }, 300_000);
});

function formatTable(rows: Record<string, string>[]): string[] {
  const keys = Object.keys(rows[0] ?? {});
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => (r[k] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
  return [
    line(keys),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(keys.map((k) => r[k] ?? ''))),
  ];
}
