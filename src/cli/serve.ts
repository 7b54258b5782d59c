/** `switchyard serve`: opens the services, listens, and shuts down cleanly on SIGINT/SIGTERM. */
import { loadConfig } from '../config/index.js';
import { closeServices, openServices, startWorkers } from '../services.js';
import { buildApp } from '../http/app.js';

const HOUR = 3_600_000;

export interface ServeFlags {
  config?: string;
  port?: number;
  host?: string;
  dataDir?: string;
}

export async function serve(flags: ServeFlags): Promise<void> {
  const config = loadConfig({
    file: flags.config,
    overrides: { port: flags.port, host: flags.host, data_dir: flags.dataDir },
  });
  const services = await openServices(config);
  const app = await buildApp(services);
  await startWorkers(services);
  await app.listen({ port: config.port, host: config.host });

  const retentionMs = config.blobs.retention_days * 24 * HOUR;
  const sweep = async () => {
    const removed = await services.blobs.sweep(retentionMs);
    if (removed > 0) app.log.info({ removed }, 'expired files removed');
  };
  const sweeper = retentionMs > 0 ? setInterval(() => void sweep(), HOUR).unref() : undefined;
  if (sweeper) void sweep();

  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    if (sweeper) clearInterval(sweeper);
    await app.close();
    await closeServices(services);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
