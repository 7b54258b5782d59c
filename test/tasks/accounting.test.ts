/** Credits, idempotency, isolation and worker deaths: what a task costs, and that it runs once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectError, fieldsOf } from '../support/expect.js';
import { testProviders } from '../support/test-capability.js';
import { Providers } from '../../src/providers/index.js';
import { pollTask } from '../support/poll.js';
import { randomUUID } from 'node:crypto';
import { tuneAudios } from '../../src/contract/tune.js';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  const generate = (prompt: string, extra: Record<string, unknown> = {}) => ({
    action: 'generate',
    prompt,
    ...extra,
  });

  beforeAll(async () => {
    // tune.audios costs 10 credits by default.
    server = await startServer({ 'tasks.expires_seconds': 2 }, { backend, providers: testProviders() });
  });
  afterAll(() => server.close());

  async function account(credits: number) {
    const { token, secret } = await server.services.tokens.create({ name: `t${Math.random()}`, credits });
    const balance = () => server.services.tokens.balance(token.id);
    return { secret, balance };
  }

  describe('credits of tasks', () => {
    it('are reserved at submission and kept on success', async () => {
      const { secret, balance } = await account(100);
      const answer = await server.post('/tune/audios', generate('sleep=300', { async: true }), secret);
      expect(await balance()).toBe(90);
      await pollTask(server, 'tune', answer.body.task_id as string, secret);
      expect(await balance()).toBe(90);
    });

    it('are refunded on failure and on expiry, once', async () => {
      const { secret, balance } = await account(30);
      // Long enough to be still running when the balance is first read, on a loaded machine too.
      const failed = await server.post(
        '/tune/audios',
        generate('sleep=2000 fail=upstream_error', { async: true }),
        secret,
      );
      const expired = await server.post('/tune/audios', generate('hang', { async: true }), secret);
      expect(await balance()).toBe(10);
      await pollTask(server, 'tune', failed.body.task_id as string, secret);
      await pollTask(server, 'tune', expired.body.task_id as string, secret);
      expect(await balance()).toBe(30);
      // A second terminal move is refused, so nothing is refunded twice.
      expect(
        await server.services.taskStore.finish(failed.body.task_id as string, 'failed', {}),
      ).toBeUndefined();
      expect(await balance()).toBe(30);
    });

    it('are never spent below zero by parallel submissions', async () => {
      const { secret, balance } = await account(45);
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          server.post('/tune/audios', generate('sleep=10', { async: true }), secret),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
      for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 403, 'used_up');
      expect(await balance()).toBe(5);
    });

    it('are not charged, and no task is made, when no engine serves the family', async () => {
      const bare = await startServer({}, { backend, providers: new Providers() });
      try {
        const { token, secret } = await bare.services.tokens.create({ name: 'bare', credits: 50 });
        expectError(await bare.post('/tune/audios', generate('x'), secret), 503, 'busy');
        expect(await bare.services.tokens.balance(token.id)).toBe(50);
        expect((await bare.post('/tune/tasks', { action: 'retrieve_batch' }, secret)).body.count).toBe(0);
      } finally {
        await bare.close();
      }
    });
  });

  describe('idempotency', () => {
    it('gives the same task for the same key and body, charged once', async () => {
      const { secret, balance } = await account(100);
      const body = generate('sleep=50', { async: true });
      const headers = { 'idempotency-key': 'order-4711' };
      const [first, second] = await Promise.all([
        server.post('/tune/audios', body, secret, headers),
        server.post('/tune/audios', body, secret, headers),
      ]);
      expect(first?.body.task_id).toBe(second?.body.task_id);
      const third = await server.post('/tune/audios', body, secret, headers);
      expect(third.body.task_id).toBe(first?.body.task_id);
      expect(await balance()).toBe(90);
      const listing = await server.post('/tune/tasks', { action: 'retrieve_batch' }, secret);
      expect(listing.body.count).toBe(1);
    });

    it('refuses a key reused with a different body, and keeps keys apart per token', async () => {
      const { secret } = await account(100);
      const other = await account(100);
      const headers = { 'idempotency-key': 'same-key' };
      const first = await server.post('/tune/audios', generate('sleep=1', { async: true }), secret, headers);
      const changed = await server.post(
        '/tune/audios',
        generate('sleep=2', { async: true }),
        secret,
        headers,
      );
      expectError(changed, 400, 'bad_request');
      expect(fieldsOf(changed)).toEqual(['idempotency-key']);
      const elsewhere = await server.post(
        '/tune/audios',
        generate('sleep=1', { async: true }),
        other.secret,
        headers,
      );
      expect(elsewhere.body.task_id).not.toBe(first.body.task_id);
      const bad = await server.post('/tune/audios', generate('x', { async: true }), secret, {
        'idempotency-key': 'a b',
      });
      expect(fieldsOf(bad)).toEqual(['idempotency-key']);
    });
  });

  describe('isolation', () => {
    it('a task is only retrievable by the token that made it', async () => {
      const alice = await account(100);
      const bob = await account(100);
      const answer = await server.post('/tune/audios', generate('sleep=1'), alice.secret);
      const id = answer.body.task_id as string;
      expect((await server.post('/tune/tasks', { action: 'retrieve', id }, alice.secret)).status).toBe(200);
      expectError(await server.post('/tune/tasks', { action: 'retrieve', id }, bob.secret), 404, 'not_found');
      expect(
        (await server.post('/tune/tasks', { action: 'retrieve_batch', ids: [id] }, bob.secret)).body.count,
      ).toBe(0);
    });
  });

  describe('callback URLs', () => {
    it('refuses at once a callback that can never be called', async () => {
      const { secret } = await account(100);
      for (const url of ['http://127.0.0.1:9/cb', 'http://169.254.169.254/', 'http://[::1]/x']) {
        const answer = await server.post('/tune/audios', generate('x', { callback_url: url }), secret);
        expectError(answer, 400, 'bad_request');
        expect(fieldsOf(answer)).toEqual(['callback_url']);
      }
    });
  });

  // The embedded queue's record of a run is the task's row; BullMQ's stalled jobs are tested by
  // killing a real worker process (test/scale/multi-process.test.ts).
  if (backend === 'embedded')
    describe('dead workers', () => {
      // A task as a process that died while running it leaves it: running, begun `runs` times,
      // then queued again as the next process's start queues every live task.
      async function orphan(prompt: string, runs: number, secret: string) {
        const token = await server.services.tokens.authenticate(`Bearer ${secret}`);
        const { task } = await server.services.taskStore.submit({
          operation: tuneAudios,
          payer: token,
          traceId: randomUUID(),
          body: { ...generate(prompt), model: 'tune-v4' },
          quote: { credits: 10, basis: '10 per request' },
          windows: [],
          deadlineMs: Date.now() + 60_000,
        });
        for (let run = 0; run < runs; run += 1) await server.services.taskStore.begin(task.id);
        await server.services.queue.enqueue(task.id, task.family);
        return task.id;
      }

      it('runs again a job whose worker died', async () => {
        const { secret } = await account(100);
        const record = await pollTask(server, 'tune', await orphan('sleep=10', 1, secret), secret);
        expect(record.state).toBe('succeeded');
      });

      it('gives up on a job whose workers died three times, and refunds it', async () => {
        const { secret, balance } = await account(100);
        const record = await pollTask(server, 'tune', await orphan('sleep=10', 3, secret), secret);
        expect(record).toMatchObject({ state: 'failed', response: { error: { code: 'api_error' } } });
        expect(JSON.stringify(record.response)).toContain('stopped 3 times');
        expect(await balance()).toBe(100);
      });
    });
});
