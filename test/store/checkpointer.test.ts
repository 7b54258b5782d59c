/**
 * The WAL is copied back into the database file by the checkpointing worker, not by the writing
 * connection: that connection's own threshold is far above what these writes reach, so the
 * database file grows only if the worker checkpointed. The worker ends once the log stays
 * checkpointed, and new writes start it again: the test waits for it to say it rested, rather
 * than for a time after which it should have.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { BACKSTOP_PAGES, startCheckpointer } from '../../src/store/checkpointer.js';

let dir: string;
let file: string;
let sqlite: SqliteDatabase.Database;
let stop: () => Promise<void>;
const seen: string[] = [];
let rested: () => void = () => undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  file = join(dir, 'db.sqlite');
  sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table pages (n integer primary key, body blob)');
  stop = startCheckpointer(sqlite, file, {
    error: (message) => seen.push(`error ${message}`),
    started: () => seen.push('started'),
    rested: () => {
      seen.push('rested');
      rested();
    },
  });
});
afterAll(async () => {
  await stop?.();
  sqlite?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes about `pages` pages of 4 KiB, one commit each. */
function write(from: number, pages: number): void {
  const insert = sqlite.prepare('insert into pages (n, body) values (?, ?)');
  for (let n = from; n < from + pages; n++) insert.run(n, Buffer.alloc(4000, n % 251));
}

const grown = (bytes: number) =>
  vi.waitFor(() => expect(statSync(file).size).toBeGreaterThanOrEqual(bytes), {
    timeout: 10_000,
    interval: 100,
  });

it('copies the log into the database file from its own thread, rests, and starts again on writes', async () => {
  const pages = 600;
  expect(pages).toBeLessThan(BACKSTOP_PAGES / 10);
  const before = statSync(file).size;
  const firstRest = new Promise<void>((resolve) => (rested = resolve));
  write(0, pages);
  await grown(before + pages * 4000);

  await firstRest;
  expect(seen).toEqual(['started', 'rested']);
  const restedSize = statSync(file).size;
  write(pages, pages);
  await grown(restedSize + pages * 4000);
  expect(seen).toEqual(['started', 'rested', 'started']);
}, 40_000);
