import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectError, expectShape } from '../support/expect.js';
import { storeTask } from '../support/tasks.js';
import { TaskBatch, TaskRecord } from '../../src/contract/responses.js';
import { Tokens } from '../../src/accounts/tokens.js';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({}, { backend });
  });
  afterAll(() => server.close());

  const retrieve = (id: string) => ({ action: 'retrieve', id });

  describe('tokens', () => {
    it('401 no_token without a bearer token', async () => {
      expectError(await server.post('/serp/web', { query: 'a' }), 401, 'no_token');
      expectError(
        await server.post('/serp/web', { query: 'a' }, undefined, { authorization: 'Basic dTpw' }),
        401,
        'no_token',
      );
    });

    it('401 invalid_token for an unknown token', async () => {
      expectError(
        await server.post('/serp/web', { query: 'a' }, 'sy_not-a-real-token'),
        401,
        'invalid_token',
      );
    });

    it('401 invalid_token once revoked', async () => {
      const { token, secret } = await server.services.tokens.create({ name: 'to-revoke' });
      expect((await server.post('/tune/tasks', { action: 'retrieve_batch' }, secret)).status).toBe(200);
      expect(await server.services.tokens.revoke(token.id)).toBe(1);
      expectError(
        await server.post('/tune/tasks', { action: 'retrieve_batch' }, secret),
        401,
        'invalid_token',
      );
    });

    it('honours a revocation made by another process within tokens.cache_ms', async () => {
      const { token, secret } = await server.services.tokens.create({ name: 'elsewhere' });
      expect((await server.post('/tune/tasks', { action: 'retrieve_batch' }, secret)).status).toBe(200);
      // Another node (or the CLI) revokes through its own view of the same database.
      expect(await new Tokens(server.services.db).revoke(token.id)).toBe(1);
      await new Promise((r) => setTimeout(r, server.config.tokens.cache_ms + 50));
      expectError(
        await server.post('/tune/tasks', { action: 'retrieve_batch' }, secret),
        401,
        'invalid_token',
      );
    });

    it('401 token_expired after its expiry', async () => {
      const expired = await server.token({ expiresAt: Date.now() - 1000 });
      expectError(await server.post('/serp/web', { query: 'a' }, expired), 401, 'token_expired');
      const valid = await server.token({ expiresAt: Date.now() + 60_000 });
      expect((await server.post('/tune/tasks', { action: 'retrieve_batch' }, valid)).status).toBe(200);
    });

    it('403 token_mismatched for an operation the token may not call', async () => {
      const limited = await server.token({ operations: ['/serp/web'] });
      expectError(
        await server.post('/tune/tasks', { action: 'retrieve_batch' }, limited),
        403,
        'token_mismatched',
      );
      expect((await server.post('/serp/web', { query: 'a' }, limited)).status).toBe(200);
    });

    it('answers 401 before looking at the body', async () => {
      expectError(await server.post('/serp/web', '{broken', undefined), 401, 'no_token');
    });

    it('stores tokens hashed: the secret appears nowhere in the database', async () => {
      const { secret } = await server.services.tokens.create({ name: 'hashed' });
      const rows = await server.services.db.selectFrom('tokens').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(secret);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
      // The embedded database is a file: not even a deleted page of it may hold the secret.
      if (backend === 'embedded') {
        const path = server.config.database.url.slice('sqlite:'.length);
        expect(readFileSync(path).includes(secret)).toBe(false);
        expect(readFileSync(`${path}-wal`).includes(secret)).toBe(false);
      }
    });

    it('has 256 bits of randomness per token and a whsec_ callback secret', async () => {
      const { token, secret } = await server.services.tokens.create({ name: 'shape' });
      expect(secret).toMatch(/^sy_[A-Za-z0-9_-]{43}$/);
      expect(token.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    });
  });

  describe('tenant isolation', () => {
    it('a token sees its own tasks and nobody else’s, and cannot tell them from missing ones', async () => {
      const alice = await server.services.tokens.create({ name: 'alice' });
      const bob = await server.services.tokens.create({ name: 'bob' });
      const task = await storeTask(server.services, alice.token.id, 'tune');

      const own = await server.post('/tune/tasks', retrieve(task), alice.secret);
      expect(own.status).toBe(200);
      expectShape(own.body, TaskRecord);
      expect(own.body).toMatchObject({ id: task, _id: task, state: 'succeeded', elapsed: 1.5 });

      const other = await server.post('/tune/tasks', retrieve(task), bob.secret);
      const missing = await server.post(
        '/tune/tasks',
        retrieve('00000000-0000-4000-8000-000000000000'),
        bob.secret,
      );
      expectError(other, 404, 'not_found');
      expectError(missing, 404, 'not_found');
      const strip = (b: Record<string, unknown>) => ({
        ...b,
        trace_id: undefined,
        error: { ...(b.error as object), message: undefined },
      });
      expect(strip(other.body)).toEqual(strip(missing.body));

      const batch = await server.post('/tune/tasks', { action: 'retrieve_batch', ids: [task] }, bob.secret);
      expect(batch.body).toEqual({ items: [], count: 0 });
      const listing = await server.post('/tune/tasks', { action: 'retrieve_batch' }, bob.secret);
      expect(listing.body).toEqual({ items: [], count: 0 });
      const aliceListing = await server.post('/tune/tasks', { action: 'retrieve_batch' }, alice.secret);
      expectShape(aliceListing.body, TaskBatch);
      expect(aliceListing.body.count).toBe(1);
    });

    it('a task of one family is not found through another family’s endpoint', async () => {
      const carol = await server.services.tokens.create({ name: 'carol' });
      const task = await storeTask(server.services, carol.token.id, 'clip');
      expect((await server.post('/clip/tasks', retrieve(task), carol.secret)).status).toBe(200);
      expectError(await server.post('/dance/tasks', retrieve(task), carol.secret), 404, 'not_found');
    });

    it('pages a listing newest first, filtered by creation time', async () => {
      const dave = await server.services.tokens.create({ name: 'dave' });
      const base = Date.UTC(2026, 0, 1);
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1)
        ids.push(await storeTask(server.services, dave.token.id, 'maxi', base + i * 60_000));
      const page = await server.post(
        '/maxi/tasks',
        { action: 'retrieve_batch', limit: 2, offset: 1 },
        dave.secret,
      );
      expect(page.body.count).toBe(5);
      expect((page.body.items as { id: string }[]).map((t) => t.id)).toEqual([ids[3], ids[2]]);
      const window = await server.post(
        '/maxi/tasks',
        { action: 'retrieve_batch', created_at_min: base / 1000 + 60, created_at_max: base / 1000 + 120 },
        dave.secret,
      );
      expect((window.body.items as { id: string }[]).map((t) => t.id)).toEqual([ids[2], ids[1]]);
    });
  });
});
