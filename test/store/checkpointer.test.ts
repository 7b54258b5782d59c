/**
 * The WAL is copied back into the database file by the checkpointing worker, not by the server's
 * connection: the main connection's own threshold is far above what these writes reach, so the
 * database file grows only if the worker checkpointed; after the worker ended for want of work,
 * new writes start it again.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { BACKSTOP_PAGES } from '../../src/store/checkpointer.js';

let dir: string;
let file: string;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
  file = join(dir, 'db.sqlite');
  db = await openDatabase(`sqlite:${file}`);
  await sql`create table pages (n integer primary key, body blob)`.execute(db);
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes about `pages` pages of 4 KiB, one commit each. */
async function write(from: number, pages: number): Promise<void> {
  for (let n = from; n < from + pages; n++) {
    await sql`insert into pages (n, body) values (${n}, ${Buffer.alloc(4000, n % 251)})`.execute(db);
  }
}

const grown = (bytes: number) =>
  vi.waitFor(() => expect(statSync(file).size).toBeGreaterThanOrEqual(bytes), {
    timeout: 10_000,
    interval: 100,
  });

it('copies the log into the database file from its own thread, and again after it rested', async () => {
  const pages = 600;
  expect(pages).toBeLessThan(BACKSTOP_PAGES / 10);
  const before = statSync(file).size;
  await write(0, pages);
  await grown(before + pages * 4000);

  // Idle long enough for the worker to end, then written again.
  await new Promise((resolve) => setTimeout(resolve, 7000));
  const rested = statSync(file).size;
  await write(pages, pages);
  await grown(rested + pages * 4000);
}, 40_000);
