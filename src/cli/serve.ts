/**
 * `switchyard serve`: opens the services, listens, runs the task workers too unless
 * `workers.embedded` is false, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { loadConfig } from '../config/index.js';
import { closeServices, openServices, startWorkers, type Services } from '../services.js';
import { buildApp } from '../http/app.js';
import { stopOnSignals } from './lifecycle.js';

const HOUR = 3_600_000;

export interface ServeFlags {
  config?: string;
  port?: number;
  host?: string;
  dataDir?: string;
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
  const config = loadConfig({
    file: flags.config,
    overrides: { port: flags.port, host: flags.host, data_dir: flags.dataDir },
  });
  const services = await openServices(config);
  const app = await buildApp(services);
  if (config.workers.embedded) await startWorkers(services);
  await app.listen({ port: config.port, host: config.host });
  const sweeper = config.workers.embedded ? sweepFiles(services) : undefined;
  stopOnSignals(services.log, async () => {
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
  const services = await openServices(config);
  await startWorkers(services);
  const sweeper = sweepFiles(services);
  services.log.info({ redis_prefix: config.redis.prefix }, 'worker started');
  stopOnSignals(services.log, async () => {
    clearInterval(sweeper);
    await closeServices(services);
  });
}
