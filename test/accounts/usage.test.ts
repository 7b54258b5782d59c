/**
 * Usage rows hold what a request finally kept, read from the database after real requests:
 * nothing for a failure, the price for a success, and for a task what it kept once it ended,
 * however the request was answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type Answer, type TestServer } from '../support/server.js';
import { expectError } from '../support/expect.js';
import { testProviders } from '../support/test-capability.js';
import { pollTask } from '../support/poll.js';

describe.each(BACKENDS)('%s', (backend) => {
  /** The local engines, as shipped. */
  let engines: TestServer;
  /** Tasks that sleep, fail or hang as their prompt says. */
  let scripted: TestServer;

  beforeAll(async () => {
    [engines, scripted] = await Promise.all([
      startServer({ prices: { 'serp.web': 3 } }, { backend }),
      startServer(
        { 'limits.sync_wait_seconds': 1, 'tasks.expires_seconds': 3 },
        { backend, providers: testProviders() },
      ),
    ]);
  });
  afterAll(() => Promise.all([engines?.close(), scripted?.close()]));

  async function account(server: TestServer, credits: number) {
    const { token, secret } = await server.services.tokens.create({ name: `u${Math.random()}`, credits });
    const balance = async () =>
      Number(
        (
          await server.services.db
            .selectFrom('accounts')
            .select('credits')
            .where('id', '=', token.id)
            .executeTakeFirst()
        )?.credits,
      );
    return { secret, balance };
  }

  /** The request's usage row, once its answer is recorded there (records are written in batches). */
  async function usageOf(server: TestServer, answer: Answer) {
    const traceId = answer.headers.get('x-trace-id') as string;
    const until = Date.now() + 10_000;
    for (;;) {
      const rows = await server.services.db
        .selectFrom('usage')
        .selectAll()
        .where('trace_id', '=', traceId)
        .execute();
      const found = rows.map((r) => ({ ...r, credits: Number(r.credits) }));
      if (found.length > 1) throw new Error(`${found.length} usage rows for ${traceId}`);
      if (found[0] && found[0].status !== 202) return found[0];
      if (Date.now() > until) throw new Error(`usage of ${traceId}: ${JSON.stringify(found)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a 400 from /tune/vox keeps nothing', async () => {
    const { secret, balance } = await account(engines, 20);
    const answer = await engines.post('/tune/vox', { audio_id: 'no-such-audio' }, secret);
    expectError(answer, 400, 'bad_request');
    expect((answer.body.error as { message: string }).message).toBe('audio_id: names no audio of this token');
    expect(await usageOf(engines, answer)).toMatchObject({ operation: '/tune/vox', status: 400, credits: 0 });
    expect(await balance()).toBe(20);
  });

  it('a synchronous call keeps its price when it succeeds, nothing when it fails after the hold', async () => {
    const { secret, balance } = await account(engines, 20);
    const found = await engines.post('/serp/web', { query: 'a' }, secret);
    expect(found.status).toBe(200);
    // No chat channel is configured: 503, after a hold on the most the answer could cost.
    const chat = { model: 'chatmodel-4o', messages: [{ role: 'user', content: 'hi' }] };
    const unserved = await engines.post('/chatmodel/chat/completions', chat, secret);
    expectError(unserved, 503, 'busy');
    expect(await usageOf(engines, found)).toMatchObject({ operation: '/serp/web', status: 200, credits: 3 });
    expect(await usageOf(engines, unserved)).toMatchObject({ status: 503, credits: 0 });
    expect(await balance()).toBe(17);
  });

  it('a task that fails in the worker keeps nothing once it ends', async () => {
    const { secret, balance } = await account(engines, 20);
    const answer = await engines.post('/tune/vox', { audio_id: 'no-such-audio', async: true }, secret);
    expect(answer.status).toBe(200);
    const task = await pollTask(engines, 'tune', answer.body.task_id as string, secret);
    expect(task.state).toBe('failed');
    expect(await usageOf(engines, answer)).toMatchObject({ operation: '/tune/vox', status: 200, credits: 0 });
    expect(await balance()).toBe(20);
  });

  it('a task that succeeds keeps its price', async () => {
    const { secret, balance } = await account(scripted, 30);
    const answer = await scripted.post(
      '/tune/audios',
      { action: 'generate', prompt: 'sleep=100', async: true },
      secret,
    );
    expect((await pollTask(scripted, 'tune', answer.body.task_id as string, secret)).state).toBe('succeeded');
    expect(await usageOf(scripted, answer)).toMatchObject({
      operation: '/tune/audios',
      status: 200,
      credits: 10,
    });
    expect(await balance()).toBe(20);
  });

  it('a task keeps nothing while it runs, nor once refunded on failure or expiry; a replay costs nothing', async () => {
    const { secret, balance } = await account(scripted, 30);
    const hanging = await scripted.post(
      '/tune/audios',
      { action: 'generate', prompt: 'hang', async: true },
      secret,
    );
    // Held, not kept: the balance is down while the row says nothing was charged.
    expect(await usageOf(scripted, hanging)).toMatchObject({ status: 200, credits: 0 });
    expect(await balance()).toBe(20);
    const replayed = { 'idempotency-key': `k${Math.random()}` };
    const failing = { action: 'generate', prompt: 'sleep=100 fail=upstream_error', async: true };
    const failed = await scripted.post('/tune/audios', failing, secret, replayed);
    const replay = await scripted.post('/tune/audios', failing, secret, replayed);
    expect(replay.body.task_id).toBe(failed.body.task_id);
    for (const answer of [failed, hanging]) {
      const task = await pollTask(scripted, 'tune', answer.body.task_id as string, secret);
      expect(['failed', 'expired']).toContain(task.state);
      expect(await usageOf(scripted, answer)).toMatchObject({ status: 200, credits: 0 });
    }
    expect(await usageOf(scripted, replay)).toMatchObject({ status: 200, credits: 0 });
    expect(await balance()).toBe(30);
  });

  it('a wait that ends in 504 keeps the price once its task succeeds', async () => {
    const { secret, balance } = await account(scripted, 30);
    const answer = await scripted.post('/tune/audios', { action: 'generate', prompt: 'sleep=1500' }, secret);
    expectError(answer, 504, 'timeout');
    const id = answer.body.task_id as string;
    expect((await pollTask(scripted, 'tune', id, secret)).state).toBe('succeeded');
    expect(await usageOf(scripted, answer)).toMatchObject({
      status: 504,
      credits: 10,
    });
    expect(await balance()).toBe(20);
  });
});
