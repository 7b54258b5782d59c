/**
 * Rate and concurrency limits shared by every node, in Redis. Each check is one Lua script, so it
 * is atomic across nodes, and uses Redis's clock, so nodes with drifting clocks agree. A
 * concurrency slot held by a node that died is freed when its `slotTtlMs` passes.
 *
 * When Redis does not answer, the limits are not enforced (the failure is logged): a request is
 * better served unlimited than refused or kept waiting, and credits, kept in the database, still
 * hold.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Limiter } from './limiter.js';

// The same token bucket as MemoryLimiter: one second of requests, refilled continuously.
const TAKE = `
local capacity = math.max(1, tonumber(ARGV[1]))
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = t[1] * 1000 + t[2] / 1000
local b = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = tonumber(b[1]) or capacity
local at = tonumber(b[2]) or now
level = math.min(capacity, level + (now - at) / 1000 * rate)
local wait = 0
if level >= 1 then level = level - 1 else wait = (1 - level) / rate end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return tostring(wait)`;

const ACQUIRE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

export class RedisLimiter implements Limiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly slotTtlMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  async take(tokenId: string, ratePerSecond: number): Promise<number> {
    try {
      const wait = await this.redis.eval(TAKE, 1, `${this.prefix}:rate:${tokenId}`, String(ratePerSecond));
      return Number(wait);
    } catch (error) {
      this.onError(error);
      return 0;
    }
  }

  async acquire(tokenId: string, max: number): Promise<(() => void) | null> {
    const key = `${this.prefix}:inflight:${tokenId}`;
    const slot = randomUUID();
    let taken: unknown;
    try {
      taken = await this.redis.eval(ACQUIRE, 1, key, String(max), String(this.slotTtlMs), slot);
    } catch (error) {
      this.onError(error);
      return () => {};
    }
    if (Number(taken) !== 1) return null;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.redis.zrem(key, slot).catch(() => undefined);
    };
  }

  async close(): Promise<void> {}
}
