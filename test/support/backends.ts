/**
 * The two ways Switchyard stores its state, for suites that must hold on both: `embedded`
 * (SQLite, in-process queue, limits and events) and `postgres+redis` (a fresh PostgreSQL
 * database and a fresh Redis prefix per server). The servers are the machine's own; when one
 * does not answer, provisioning fails and so does the suite: it is never skipped.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';

export type Backend = 'embedded' | 'postgres+redis';
export const BACKENDS: Backend[] = ['embedded', 'postgres+redis'];

export const POSTGRES_ADMIN_URL =
  process.env.SWITCHYARD_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.SWITCHYARD_TEST_REDIS ?? 'redis://127.0.0.1:6379';

export interface Provisioned {
  overrides: Record<string, unknown>;
  release(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database and Redis prefix; `release` drops both. */
export async function provisionShared(): Promise<Provisioned> {
  const name = `sy_test_${randomBytes(6).toString('hex')}`;
  // Redis is asked first: a database made before finding Redis down would be left behind.
  await redisAnswers();
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    overrides: { 'database.url': url.href, 'redis.url': REDIS_URL, 'redis.prefix': name },
    async release() {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      const cleaner = new Redis(REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await cleaner.scan(cursor, 'MATCH', `${name}:*`, 'COUNT', 1000);
          if (keys.length > 0) await cleaner.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        await cleaner.quit();
      }
    },
  };
}

/**
 * A pool on a provisioned database, for tests that open one themselves. A pool's `end` resolves
 * once it asked its connections to close, not once they closed: `release` dropping the database
 * right after ends a closing connection from the server's side, an error the pool reports on
 * itself, and one nobody listens to would fail the suite.
 */
export function poolOn(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url });
  pool.on('error', () => undefined);
  return pool;
}

/** Connects to Redis once; fails (the test with it) when it does not answer. */
async function redisAnswers(): Promise<void> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined); // the failed connect() below is the report
  await redis.connect();
  await redis.quit();
}

export async function provision(backend: Backend): Promise<Provisioned> {
  return backend === 'embedded' ? { overrides: {}, release: async () => {} } : provisionShared();
}
