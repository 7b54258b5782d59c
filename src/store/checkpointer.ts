/**
 * WAL checkpoints off the event loop. SQLite copies the write-ahead log back into the database
 * file (and syncs it) from whichever connection commits past `wal_autocheckpoint` pages: on the
 * server's one connection that stalls the event loop for the copy and the sync, which measured
 * more than half the wall time of a small commit. A worker thread with its own connection
 * checkpoints instead, in PASSIVE mode (it never waits for, nor blocks, the writer); the main
 * connection's own threshold stays only as a backstop, raised so that it is reached only when
 * the worker falls far behind.
 *
 * The worker costs about 10 MB, so it runs only while the database is written: it ends itself
 * once the log has stayed fully checkpointed for a while, and a change of the log file's mtime
 * (looked at once a second) starts it again.
 */
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 200;
/** Rounds with nothing to copy before the worker ends (5 s). */
const IDLE_ROUNDS = 25;
const WATCH_EVERY_MS = 1000;
/** Pages (4 KiB) the log may grow to before the committing connection checkpoints itself. */
export const BACKSTOP_PAGES = 16_000;

// An eval'd worker is CommonJS; it is given better-sqlite3's resolved path, whatever the cwd.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
let idle = 0;
const timer = setInterval(() => {
  try {
    const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    idle = log === checkpointed ? idle + 1 : 0;
  } catch (error) {
    idle = 0;
    parentPort.postMessage(String(error));
  }
  if (idle >= workerData.idleRounds) {
    clearInterval(timer);
    db.close();
  }
}, workerData.everyMs);
`;

/** What a checkpointer tells of itself: its failures, and when its worker starts and rests. */
export interface CheckpointerEvents {
  error?(message: string): void;
  started?(): void;
  /** The worker ended for want of work; the next write to the log starts it again. */
  rested?(): void;
}

/** Checkpoints the WAL of the database file at `path` while it is written; the answer stops it. */
export function startCheckpointer(
  sqlite: SqliteDatabase.Database,
  path: string,
  events: CheckpointerEvents = {},
): () => Promise<void> {
  const onError = (message: string) => events.error?.(message);
  let stopping = false;
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let worker: Worker | undefined;
  let seen = 0;
  const start = () => {
    const started = new Worker(WORKER, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        path,
        everyMs: CHECKPOINT_EVERY_MS,
        idleRounds: IDLE_ROUNDS,
      },
    });
    started.on('message', onError);
    started.on('error', (error) => onError(error.message));
    started.once('exit', () => {
      if (worker === started) worker = undefined;
      if (!stopping) events.rested?.();
    });
    // The worker never keeps the process alive; a process that ends simply ends it.
    started.unref();
    events.started?.();
    return started;
  };
  const watch = setInterval(() => {
    stat(`${path}-wal`).then(
      ({ mtimeMs }) => {
        if (mtimeMs === seen) return;
        seen = mtimeMs;
        worker ??= start();
      },
      () => undefined,
    );
  }, WATCH_EVERY_MS).unref();
  return async () => {
    stopping = true;
    clearInterval(watch);
    await worker?.terminate();
  };
}
