/**
 * Everything a running server uses, opened once from the configuration and closed in reverse.
 * The HTTP layer and the command line both start from here; `startWorkers` adds the task
 * workers and the callback deliveries.
 */
import { pino, type Logger } from 'pino';
import { standardOutput } from './log-output.js';
import type { Config } from './config/index.js';
import { openDatabase, type Db } from './store/database.js';
import type { Blobs } from './store/blobs.js';
import { openBlobs } from './store/open-blobs.js';
import { Tokens } from './accounts/tokens.js';
import { Credits } from './accounts/credits.js';
import { Usage } from './accounts/usage.js';
import { Metering } from './accounts/metering.js';
import { MemoryLimiter, type Limiter } from './accounts/limiter.js';
import { TaskRecords } from './tasks/records.js';
import { TaskStore } from './tasks/store.js';
import { Redis } from 'ioredis';
import { MemoryQueue } from './tasks/memory-queue.js';
import { BullmqQueue } from './tasks/bullmq-queue.js';
import type { Queue } from './tasks/queue.js';
import { MemoryTaskEvents, type TaskEvents } from './tasks/events.js';
import { RedisTaskEvents } from './tasks/redis-events.js';
import { RedisLimiter } from './accounts/redis-limiter.js';
import { TaskWatch } from './tasks/watch.js';
import { TaskRunner } from './tasks/runner.js';
import { CallbackDeliveries } from './outbox/deliveries.js';
import type { Providers } from './providers/index.js';
import { providersFrom } from './providers/build.js';
import { addressPolicy } from './net/address-policy.js';
import { OutboundGuard } from './net/guard.js';
import { Metrics } from './observe/metrics.js';
import { ChannelBoard, channelEntries, type ChannelEntry } from './providers/channel-board.js';
import { Admin } from './admin/index.js';
import { reloadStates, watchChannelStates } from './admin/channels.js';
import { openChangeSignal } from './store/change-signal.js';
import { ChannelHealth } from './watchers/channel-health.js';
import { checkLocalEngine, type LocalCheck } from './watchers/local-probes.js';
import { Alerts } from './watchers/alerts.js';
import { watchAccounts } from './watchers/account-alerts.js';
import { startRetention } from './watchers/retention.js';
import { OPERATIONS } from './contract/table.js';

export interface Services {
  config: Config;
  log: Logger;
  db: Db;
  blobs: Blobs;
  tokens: Tokens;
  credits: Credits;
  usage: Usage;
  /** Where a request is priced, held, settled and recorded. */
  metering: Metering;
  limiter: Limiter;
  tasks: TaskRecords;
  taskStore: TaskStore;
  queue: Queue;
  events: TaskEvents;
  watch: TaskWatch;
  runner: TaskRunner;
  callbacks: CallbackDeliveries;
  providers: Providers;
  guard: OutboundGuard;
  metrics: Metrics;
  /** The Redis connections of the distributed mode (none in the embedded mode). */
  redis: Redis[];
  /** Every channel, the ones operators disabled, their recent calls. */
  board: ChannelBoard;
  /** The operator's side: what the admin API and the command line call. */
  admin: Admin;
  /** Stops what runs in the background for the admin side (channel switches, retention). */
  stopAdmin: (() => void)[];
}

export interface ServiceOptions {
  /** Where log lines go (standard output when absent). */
  logStream?: NodeJS.WritableStream;
  /** The engines and channels serving each family. */
  providers?: Providers;
}

/** How often a node asks whether an operator or health checks switched a channel off or on. */
const CHANNEL_CHANGES_MS = 250;

/**
 * A local engine can take work when the providers serve its family and what it needs from the
 * machine is there (watchers/local-probes.ts).
 */
async function checkLocal(providers: Providers, config: Config, entry: ChannelEntry): Promise<LocalCheck> {
  const operation = OPERATIONS.find((o) => o.family === entry.capability && o.kind !== 'retrieval');
  if (!operation) return { ok: false, detail: 'no operation of this family' };
  try {
    if (operation.kind === 'task') providers.task(operation);
    else providers.sync(operation);
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
  return checkLocalEngine(entry, config.channels.find((c) => c.name === entry.id)?.model_path);
}

/** How often a node asks whether any token changed: revocations and edits hold within a second. */
const TOKEN_CHANGES_MS = 500;

export async function openServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const log = pino({ level: config.log.level }, options.logStream ?? standardOutput());
  const db = await openDatabase(config.database.url, config.database.pool_size);
  const blobs = openBlobs(config.blobs);
  const guard = new OutboundGuard({
    policy: addressPolicy({
      allowPrivate: config.outbound.allow_private,
      allowCidrs: config.outbound.allow_cidrs,
    }),
    timeoutMs: config.outbound.timeout_ms,
    maxRedirects: config.outbound.max_redirects,
  });
  const onError = (what: string) => (error: unknown) => log.error({ err: error }, what);
  const taskStore = new TaskStore(db);
  const shared = config.redis.url
    ? await openShared(config, config.redis.url, onError('task queue fault'))
    : undefined;
  const events = shared?.events ?? new MemoryTaskEvents();
  const queue =
    shared?.queue ?? new MemoryQueue({ pollMs: config.tasks.poll_ms, onError: onError('task queue fault') });
  const metrics = new Metrics();
  const callbacks = new CallbackDeliveries(
    db,
    guard,
    {
      timeoutMs: config.callbacks.timeout_ms,
      backoffSeconds: config.callbacks.backoff_seconds,
      concurrency: config.callbacks.concurrency,
      pollMs: config.callbacks.poll_ms,
      alerts: {
        secret: config.alerts.webhook_secret,
        settled: (event, outcome) => metrics.alert(event, outcome),
      },
    },
    log,
  );
  const tokens = new Tokens(db, config.tokens.cache_ms);
  const board = new ChannelBoard(channelEntries(config));
  const providers =
    options.providers ??
    providersFrom(config, { db, media: { guard, blobs, publicBaseUrl: config.public_base_url }, board });
  const alerts = new Alerts(
    db,
    metrics,
    { url: config.alerts.webhook_url, secret: config.alerts.webhook_secret },
    () => callbacks.wake(),
    log,
  );
  const health = new ChannelHealth(
    db,
    board,
    config,
    alerts,
    metrics,
    (entry) => checkLocal(providers, config, entry),
    log,
  );
  if (config.tokens.cache_ms > 0)
    await tokens.watchChanges(TOKEN_CHANGES_MS, onError('token changes not read'));
  const runner = new TaskRunner(
    taskStore,
    queue,
    providers,
    events,
    { guard, blobs, publicBaseUrl: config.public_base_url },
    log,
    {
      concurrency: (family) => config.tasks.concurrency_by_family[family] ?? config.tasks.concurrency,
      publicBaseUrl: config.public_base_url,
    },
    // Only a task with a callback queued one: waking the deliveries for every task would look
    // for work in the outbox once per task.
    (task) => {
      if (task.callback_state === 'pending') callbacks.wake();
    },
  );
  const usage = new Usage(db, onError('usage records not written'));
  const credits = new Credits(db, config.billing.time_zone);
  const services: Services = {
    config,
    log,
    db,
    blobs,
    tokens,
    credits,
    usage,
    metering: new Metering(config.prices, credits, usage),
    limiter: shared?.limiter ?? new MemoryLimiter(),
    tasks: new TaskRecords(db),
    taskStore,
    queue,
    events,
    watch: new TaskWatch(taskStore, events),
    runner,
    callbacks,
    providers,
    guard,
    metrics,
    redis: shared?.connections ?? [],
    board,
    admin: new Admin({
      config,
      db,
      tokens,
      usage,
      board,
      localProbe: (entry) => checkLocal(providers, config, entry),
      health,
      tasks: {
        store: taskStore,
        queue,
        publish: (task) => runner.publish(task),
        wakeCallbacks: () => callbacks.wake(),
        abort: (id) => runner.abort(id),
      },
    }),
    stopAdmin: [],
  };
  services.stopAdmin.push(
    await watchChannelStates(db, board, CHANNEL_CHANGES_MS, onError('channel switches not read')),
  );
  if (shared) {
    const [main, fast] = shared.connections as [Redis, Redis];
    const subscriber = main.duplicate();
    subscriber.on('error', onError('change signal fault'));
    services.redis.push(subscriber);
    board.announce = await openChangeSignal(
      fast,
      subscriber,
      `${config.redis.prefix}:channel-states`,
      () => void reloadStates(db, board).catch(onError('channel switches not read')),
      onError('channel signal fault'),
    );
    if (config.tokens.cache_ms > 0)
      tokens.announce = await openChangeSignal(
        fast,
        subscriber,
        `${config.redis.prefix}:tokens`,
        () => tokens.forget(),
        onError('token signal fault'),
      );
  }
  health.start();
  services.stopAdmin.push(() => health.stop());
  services.stopAdmin.push(
    watchAccounts(
      db,
      alerts,
      metrics,
      {
        lowBalance: config.alerts.low_balance_credits,
        everyMs: config.alerts.balance_check_seconds * 1000,
        zone: config.billing.time_zone,
      },
      log,
    ),
  );
  return services;
}

/** The distributed mode's queue, events and limiter, all in one Redis. */
async function openShared(config: Config, url: string, onError: (error: unknown) => void) {
  // BullMQ's workers block on Redis: a command must wait for a reconnection rather than fail.
  const main = new Redis(url, { maxRetriesPerRequest: null });
  // Requests must not wait on Redis: limits and event publishing fail fast instead.
  const fast = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1000 });
  const subscriber = main.duplicate();
  for (const connection of [main, fast, subscriber]) connection.on('error', onError);
  const prefix = config.redis.prefix;
  return {
    connections: [main, fast, subscriber],
    events: await RedisTaskEvents.open(fast, subscriber, prefix),
    queue: new BullmqQueue({ connection: main, prefix, leaseMs: config.tasks.lease_seconds * 1000, onError }),
    // A slot outlives the longest request that can hold it, so a dead node's slots come free.
    limiter: new RedisLimiter(fast, prefix, (config.limits.sync_wait_seconds + 60) * 1000, onError),
  };
}

/** Starts the task workers and callback deliveries, after recovering what a crash left behind. */
export async function startWorkers(services: Services): Promise<void> {
  await services.queue.recover();
  await services.runner.start();
  services.callbacks.start();
  services.credits.startExpiry(services.config.limits.hold_seconds * 1000, (error) =>
    services.log.error({ err: error }, 'expired credit holds not given back'),
  );
  services.stopAdmin.push(
    startRetention(
      services.db,
      {
        retentionDays: services.config.retention.days,
        taskExpirySeconds: services.config.tasks.expires_seconds,
      },
      (done) => {
        if (done.usage + done.tasks > 0) services.log.info(done, 'old usage rows and tasks removed');
      },
      (error) => services.log.error({ err: error }, 'usage not rolled up or pruned'),
    ),
  );
}

export async function closeServices(services: Services): Promise<void> {
  services.runner.stop();
  services.credits.stop();
  services.tokens.stopWatching();
  for (const stop of services.stopAdmin) stop();
  await services.queue.close();
  await services.callbacks.close();
  await services.providers.close();
  await services.usage.flush();
  await services.limiter.close();
  await Promise.all(services.redis.map((connection) => connection.quit().catch(() => undefined)));
  await services.guard.close();
  await services.blobs.close();
  await services.db.destroy();
}
