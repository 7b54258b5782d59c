/**
 * The shared limiter against the machine's Redis, and without one: when Redis does not answer,
 * requests pass (and the failure is reported) instead of waiting or being refused.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisLimiter } from '../../src/accounts/redis-limiter.js';
import { REDIS_URL } from '../support/backends.js';

const prefix = `sytest-limiter-${randomBytes(4).toString('hex')}`;
const live = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const dead = new Redis('redis://127.0.0.1:1', {
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  lazyConnect: true,
  retryStrategy: () => null,
});
dead.on('error', () => undefined);

afterAll(async () => {
  const keys = await live.keys(`${prefix}:*`);
  if (keys.length > 0) await live.del(...keys);
  await live.quit();
  dead.disconnect();
});

describe('RedisLimiter', () => {
  it('holds a rate across limiter instances (as across nodes)', async () => {
    const a = new RedisLimiter(live, prefix, 60_000, () => undefined);
    const b = new RedisLimiter(live, prefix, 60_000, () => undefined);
    const waits = [];
    for (let i = 0; i < 6; i += 1) waits.push(await (i % 2 === 0 ? a : b).take('tok', 3));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
    expect(waits.slice(3).every((w) => w > 0 && w <= 1)).toBe(true);
  });

  it('holds a concurrency limit and frees slots on release', async () => {
    const limiter = new RedisLimiter(live, prefix, 60_000, () => undefined);
    const first = await limiter.acquire('conc', 2);
    const second = await limiter.acquire('conc', 2);
    expect(await limiter.acquire('conc', 2)).toBeNull();
    first?.();
    await new Promise((r) => setTimeout(r, 20));
    expect(await limiter.acquire('conc', 2)).not.toBeNull();
    second?.();
  });

  it('lets requests through, reporting the failure, when Redis does not answer', async () => {
    const failures: unknown[] = [];
    const limiter = new RedisLimiter(dead, prefix, 60_000, (error) => failures.push(error));
    const started = Date.now();
    expect(await limiter.take('tok', 1)).toBe(0);
    expect(typeof (await limiter.acquire('tok', 1))).toBe('function');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(failures).toHaveLength(2);
  });
});
