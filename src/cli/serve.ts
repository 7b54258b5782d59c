/**
 * `switchyard serve`: opens the services, listens, runs the task workers too unless
 * `workers.embedded` is false, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { loadConfig } from '../config/index.js';
import { closeServices, openServices, startWorkers, type Services } from '../services.js';
import { sqliteHandleOf } from '../store/database.js';
import { buildApp } from '../http/app.js';
import { stopOnSignals } from './lifecycle.js';
import { fixMmapThreshold, trimMalloc } from './malloc.js';
import { collectWhenQuiet } from './quiet-gc.js';

const HOUR = 3_600_000;

export interface ServeFlags {
  config?: string;
  port?: number;
  host?: string;
  dataDir?: string;
}

/**
 * A long-running process gives its memory back once its load stops (docs/architecture.md,
 * Memory after load): the heap is collected when the process goes quiet, then the embedded
 * database's page cache (up to 16 MiB, filled by the rows a load writes) and malloc's free pages
 * go back too. Answers the function that stops watching.
 */
function returnMemoryWhenIdle(services: Services): Promise<() => void> {
  return collectWhenQuiet(() => {
    sqliteHandleOf(services.db)?.pragma('shrink_memory');
    trimMalloc();
  });
}

/** Removes produced files past their retention, hourly; answers the timer to clear. */
function sweepFiles(services: Services): NodeJS.Timeout | undefined {
  const retentionMs = services.config.blobs.retention_days * 24 * HOUR;
  if (retentionMs <= 0) return undefined;
  const sweep = async () => {
    const removed = await services.blobs.sweep(retentionMs);
    if (removed > 0) services.log.info({ removed }, 'expired files removed');
  };
  void sweep();
  return setInterval(() => void sweep(), HOUR).unref();
}

export async function serve(flags: ServeFlags): Promise<void> {
  // Before any thread frees a large block (native/malloc.c).
  fixMmapThreshold();
  const config = loadConfig({
    file: flags.config,
    overrides: { port: flags.port, host: flags.host, data_dir: flags.dataDir },
  });
  const services = await openServices(config);
  const stopCollecting = await returnMemoryWhenIdle(services);
  const app = await buildApp(services);
  if (config.workers.embedded) await startWorkers(services);
  await app.listen({ port: config.port, host: config.host });
  const sweeper = config.workers.embedded ? sweepFiles(services) : undefined;
  stopOnSignals(services.log, async () => {
    stopCollecting();
    clearInterval(sweeper);
    await app.close();
    await closeServices(services);
  });
}

/** `switchyard worker`: runs tasks and callbacks only, for the distributed mode. */
export async function work(flags: { config?: string }): Promise<void> {
  const config = loadConfig({ file: flags.config });
  if (!config.redis.url) {
    throw new Error('switchyard worker needs redis.url: workers take their jobs from Redis');
  }
  fixMmapThreshold();
  const services = await openServices(config);
  const stopCollecting = await returnMemoryWhenIdle(services);
  await startWorkers(services);
  const sweeper = sweepFiles(services);
  services.log.info({ redis_prefix: config.redis.prefix }, 'worker started');
  stopOnSignals(services.log, async () => {
    stopCollecting();
    clearInterval(sweeper);
    await closeServices(services);
  });
}
