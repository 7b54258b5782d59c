/**
 * `/healthz` says the process answers; `/readyz` says it can serve: the database answers, the
 * blob store can store (its own check: a writable directory, a reachable bucket), and Redis
 * answers where one is configured. Load balancers route on the second.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Blobs } from '../store/blobs.js';
import type { Db } from '../store/database.js';
import type { Metrics } from '../observe/metrics.js';

/** What health and metrics look at. */
export interface HealthServices {
  blobs: Blobs;
  db: Db;
  metrics: Metrics;
  /** The Redis connections of the distributed mode (none in the embedded mode). */
  redis: Redis[];
}

async function problems(services: HealthServices): Promise<string[]> {
  const found: string[] = [];
  try {
    await sql`select 1`.execute(services.db);
  } catch {
    found.push('database does not answer');
  }
  const blobs = await services.blobs.check();
  if (blobs) found.push(blobs);
  // Redis carries the queue and the task events in the distributed mode.
  const redis = services.redis[0];
  if (redis) {
    const answered = await Promise.race([
      redis.ping().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000).unref()),
    ]);
    if (!answered) found.push('redis does not answer');
  }
  return found;
}

export function registerHealth(app: FastifyInstance, services: HealthServices): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const found = await problems(services);
    return found.length === 0
      ? { status: 'ready' }
      : reply.code(503).send({ status: 'unavailable', problems: found });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(services.metrics.registry.contentType).send(await services.metrics.text()),
  );
}
