import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectError } from '../support/expect.js';

const UNSERVED_CHAT = { model: 'chatmodel-4o', messages: [{ role: 'user', content: 'hi' }] };

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;

  // Listing tasks is the cheapest operation that succeeds without an engine; pricing it makes
  // credit spending observable end to end.
  const LISTING = { action: 'retrieve_batch' };

  beforeAll(async () => {
    server = await startServer({ prices: { 'tasks.retrieve': 1, 'serp.web': 3 } }, { backend });
  });
  afterAll(() => server.close());

  async function balance(secret: string): Promise<number | null> {
    const [token] = (await server.services.tokens.list()).filter((t) => t.name === secret);
    return token ? ((await server.services.tokens.balance(token.id)) ?? null) : null;
  }

  describe('credits', () => {
    it('many parallel requests never spend below zero', async () => {
      const { secret } = await server.services.tokens.create({ name: 'parallel', credits: 25 });
      const answers = await Promise.all(
        Array.from({ length: 120 }, () => server.post('/tune/tasks', LISTING, secret)),
      );
      const ok = answers.filter((a) => a.status === 200).length;
      const usedUp = answers.filter((a) => a.status === 403);
      expect(ok).toBe(25);
      expect(usedUp).toHaveLength(95);
      for (const a of usedUp) expectError(a, 403, 'used_up');
      expect(await balance('parallel')).toBe(0);
    });

    it('charges nothing for a request that fails', async () => {
      const { secret } = await server.services.tokens.create({ name: 'failing', credits: 10 });
      expect((await server.post('/tune/tasks', { action: 'nope' }, secret)).status).toBe(400);
      // No chat channel is configured: 503, after a hold that is given back.
      expect((await server.post('/chatmodel/chat/completions', UNSERVED_CHAT, secret)).status).toBe(503);
      expect(await balance('failing')).toBe(10);
    });

    it('leaves unlimited tokens unlimited', async () => {
      const { secret } = await server.services.tokens.create({ name: 'unlimited' });
      for (let i = 0; i < 3; i += 1)
        expect((await server.post('/tune/tasks', LISTING, secret)).status).toBe(200);
      expect(await balance('unlimited')).toBeNull();
    });

    it('writes a usage record for every authenticated request, with what it cost', async () => {
      const { token, secret } = await server.services.tokens.create({ name: 'audited', credits: 5 });
      await server.post('/tune/tasks', LISTING, secret);
      await server.post('/tune/tasks', { action: 'retrieve', id: 'x' }, secret);
      await server.post('/serp/web', { query: 'a' }, secret);
      await new Promise((r) => setTimeout(r, 50)); // records are written as the answer completes
      const usage = await server.services.usage.forToken(token.id);
      expect(usage.map((u) => [u.operation, u.status, u.credits])).toEqual([
        ['/tune/tasks', 200, 1],
        ['/tune/tasks', 400, 0],
        ['/serp/web', 200, 3],
      ]);
      expect(usage.every((u) => u.latencyMs > 0 && /^[0-9a-f-]{36}$/.test(u.traceId))).toBe(true);
      expect(usage[0]?.action).toBe('retrieve_batch');
    });
  });
});
