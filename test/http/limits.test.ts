import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectError } from '../support/expect.js';
import { MemoryLimiter } from '../../src/accounts/limiter.js';
import { Providers } from '../../src/providers/index.js';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  const LISTING = { action: 'retrieve_batch' };

  beforeAll(async () => {
    server = await startServer({}, { backend });
  });
  afterAll(() => server.close());

  describe('rate limit', () => {
    it('answers 429 with Retry-After past the token’s rate, and recovers', async () => {
      const secret = await server.token({ ratePerSecond: 2 });
      const answers = [];
      for (let i = 0; i < 6; i += 1) answers.push(await server.post('/tune/tasks', LISTING, secret));
      expect(answers.slice(0, 2).map((a) => a.status)).toEqual([200, 200]);
      const limited = answers.filter((a) => a.status === 429);
      expect(limited.length).toBeGreaterThanOrEqual(3);
      for (const a of limited) {
        expectError(a, 429, 'too_many_requests');
        expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      await new Promise((r) => setTimeout(r, 1100));
      expect((await server.post('/tune/tasks', LISTING, secret)).status).toBe(200);
    });

    it('limits each token on its own', async () => {
      const slow = await server.token({ ratePerSecond: 1 });
      const other = await server.token({ ratePerSecond: 1 });
      await server.post('/tune/tasks', LISTING, slow);
      expect((await server.post('/tune/tasks', LISTING, slow)).status).toBe(429);
      expect((await server.post('/tune/tasks', LISTING, other)).status).toBe(200);
    });
  });

  describe('concurrency limit', () => {
    it('answers 429 past the token’s concurrent requests and frees the slot when one ends', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const saved = server.services.providers;
      server.services.providers = new Providers({
        serp: { handle: async () => (await gate, { organic: [] }) },
      });
      try {
        const secret = await server.token({ maxConcurrency: 2 });
        const first = server.post('/serp/web', { query: 'a' }, secret);
        const second = server.post('/serp/web', { query: 'b' }, secret);
        await new Promise((r) => setTimeout(r, 100));
        const third = await server.post('/serp/web', { query: 'c' }, secret);
        expectError(third, 429, 'too_many_requests');
        expect(third.headers.get('retry-after')).toBe('1');
        release();
        expect((await first).status).toBe(200);
        expect((await second).status).toBe(200);
        expect((await server.post('/serp/web', { query: 'd' }, secret)).status).toBe(200);
      } finally {
        server.services.providers = saved;
      }
    });
  });

  describe('MemoryLimiter', () => {
    it('refills its bucket with time', async () => {
      let now = 0;
      const limiter = new MemoryLimiter(() => now);
      expect([await limiter.take('t', 2), await limiter.take('t', 2)]).toEqual([0, 0]);
      expect(await limiter.take('t', 2)).toBeCloseTo(0.5);
      now = 500;
      expect(await limiter.take('t', 2)).toBe(0);
    });

    it('releases a slot once, however often release is called', async () => {
      const limiter = new MemoryLimiter();
      const release = await limiter.acquire('t', 1);
      expect(await limiter.acquire('t', 1)).toBeNull();
      release?.();
      release?.();
      const again = await limiter.acquire('t', 1);
      expect(again).not.toBeNull();
      expect(await limiter.acquire('t', 1)).toBeNull();
    });
  });
});
