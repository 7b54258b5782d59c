/**
 * Everything a running server uses, opened once from the configuration and closed in reverse.
 * The HTTP layer and the command line both start from here.
 */
import { pino, type Logger } from 'pino';
import type { Config } from './config/index.js';
import { openDatabase, type Db } from './store/database.js';
import { DirectoryBlobs, type Blobs } from './store/blobs.js';
import { Tokens } from './accounts/tokens.js';
import { Credits } from './accounts/credits.js';
import { Usage } from './accounts/usage.js';
import { MemoryLimiter, type Limiter } from './accounts/limiter.js';
import { TaskRecords } from './tasks/records.js';
import { Providers } from './providers/index.js';
import { addressPolicy } from './net/address-policy.js';
import { OutboundGuard } from './net/guard.js';
import { Metrics } from './http/metrics.js';

export interface Services {
  config: Config;
  log: Logger;
  db: Db;
  blobs: Blobs;
  tokens: Tokens;
  credits: Credits;
  usage: Usage;
  limiter: Limiter;
  tasks: TaskRecords;
  providers: Providers;
  guard: OutboundGuard;
  metrics: Metrics;
}

export interface ServiceOptions {
  /** Where log lines go (standard output when absent). */
  logStream?: NodeJS.WritableStream;
}

export async function openServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const log = options.logStream
    ? pino({ level: config.log.level }, options.logStream)
    : pino({ level: config.log.level });
  const db = await openDatabase(config.database.url);
  return {
    config,
    log,
    db,
    blobs: new DirectoryBlobs(config.blobs.dir),
    tokens: new Tokens(db, config.tokens.cache_ms),
    credits: new Credits(db),
    usage: new Usage(db, (error) => log.error({ err: error }, 'usage records not written')),
    limiter: new MemoryLimiter(),
    tasks: new TaskRecords(db),
    providers: new Providers(),
    guard: new OutboundGuard({
      policy: addressPolicy({
        allowPrivate: config.outbound.allow_private,
        allowCidrs: config.outbound.allow_cidrs,
      }),
      timeoutMs: config.outbound.timeout_ms,
      maxRedirects: config.outbound.max_redirects,
    }),
    metrics: new Metrics(),
  };
}

export async function closeServices(services: Services): Promise<void> {
  await services.usage.flush();
  await services.guard.close();
  await services.db.destroy();
}
