/**
 * `switchyard serve` gives its memory back once its load stops: the compiled program (`make test`
 * builds it, the malloc addon included), as operators run it.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MMAP_THRESHOLD } from '../src/cli/malloc.js';
import { freePort } from './support/server.js';

vi.setConfig({ testTimeout: 120_000 });

const run = promisify(execFile);
const BIN = resolve('bin/switchyard');
const MiB = 2 ** 20;
const GROWN = 10 * MiB;
const dir = mkdtempSync(join(tmpdir(), 'switchyard-memory-'));
const config = join(dir, 'switchyard.yaml');
writeFileSync(
  config,
  JSON.stringify({
    data_dir: dir,
    log: { level: 'warn' },
    tokens: { default_rate_per_second: null, default_concurrency: null },
  }),
);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The server's V8 heap as its own /metrics reports it, in bytes. */
async function heapTotal(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^switchyard_nodejs_heap_size_total_bytes (\S+)$/m.exec(text)?.[1]);
}

describe('the malloc addon', () => {
  it('is built, fixes glibc’s threshold for large blocks and trims its arenas', () => {
    const addon = createRequire(import.meta.url)(resolve('dist/native/malloc.node')) as {
      setMmapThreshold(bytes: number): boolean;
      trim(): boolean;
    };
    expect(addon.setMmapThreshold(MMAP_THRESHOLD)).toBe(true);
    expect(() => addon.setMmapThreshold(0)).toThrow(RangeError);
    expect(typeof addon.trim()).toBe('boolean');
  });
});

describe('switchyard serve', () => {
  it('collects its heap within seconds of going quiet after a burst of requests', async () => {
    const { stdout } = await run(BIN, ['token', 'create', '--config', config, '--name', 'memory'], {
      env: { ...process.env, SWITCHYARD_CONFIG: '' },
    });
    const headers = { authorization: `Bearer ${stdout.trim()}`, 'content-type': 'application/json' };
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(BIN, ['serve', '--config', config, '--port', String(port)], { stdio: 'ignore' });
    try {
      for (let ready = false; !ready; await sleep(100))
        ready = await fetch(`${base}/readyz`).then(
          (answer) => answer.ok,
          () => false,
        );
      // The first quiet moment clears what starting up left (tens of MiB): the burst is measured
      // from the heap after it. Read every 2 s, as a scrape is work too; a loaded machine may
      // take longer to be quiet.
      const started = await heapTotal(base);
      let before = started;
      for (const stop = Date.now() + 20_000; before > started - 8 * MiB && Date.now() < stop;) {
        await sleep(2000);
        before = await heapTotal(base);
      }

      // Searches until the heap has grown past what the server started with: 10 MiB, more than
      // the 8 MiB of growth that the quiet collection waits for (src/cli/quiet-gc.ts) and well
      // above the 4 MiB allowed after it. Some 2000 searches; 16 MiB took twice as many.
      let peak = before;
      const until = Date.now() + 60_000;
      const client = async (id: number) => {
        for (let i = 0; peak < before + GROWN && Date.now() < until; i += 1) {
          const answer = await fetch(`${base}/serp/web`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ query: `memory ${id} ${i}` }),
          });
          expect(answer.status).toBe(200);
          await answer.arrayBuffer();
          if (i % 20 === 0) peak = Math.max(peak, await heapTotal(base));
        }
      };
      await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(client));
      expect(peak, 'the heap the searches grew').toBeGreaterThanOrEqual(before + GROWN);

      // V8 alone keeps that heap for 40 to 70 s; quiet, the server collects it within seconds
      // (later on a loaded machine, where the writes the burst left take longer to settle).
      // Read every 3 s: a scrape of /metrics is work too, and twice a second is no quiet.
      let after = peak;
      for (const stop = Date.now() + 20_000; after > before + 4 * MiB && Date.now() < stop;) {
        await sleep(3000);
        after = await heapTotal(base);
      }
      expect(after).toBeLessThanOrEqual(before + 4 * MiB);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
