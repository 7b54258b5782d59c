/** Every way of watching a task: waiting, async, callback ids, ndjson streams, polling. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectError, expectShape } from '../support/expect.js';
import { testProviders } from '../support/test-capability.js';
import { ndjsonLines, pollTask } from '../support/poll.js';
import { tuneAudios, tuneVox } from '../../src/contract/tune.js';
import { dance } from '../../src/contract/dance.js';
import { TaskAccepted, TaskRecord } from '../../src/contract/responses.js';
import { eventOf } from '../../src/tasks/store.js';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let token: string;
  const generate = (prompt: string, extra: Record<string, unknown> = {}) => ({
    action: 'generate',
    prompt,
    ...extra,
  });
  const NDJSON = { accept: 'application/x-ndjson' };
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  beforeAll(async () => {
    server = await startServer({}, { backend, providers: testProviders() });
    token = await server.token();
  });
  afterAll(() => server.close());

  describe('waiting (the default)', () => {
    it('answers the final envelope once the task succeeds', async () => {
      const answer = await server.post('/tune/audios', generate('sleep=50'), token);
      expect(answer.status).toBe(200);
      expectShape(answer.body, tuneAudios.response);
      expect(answer.body).toMatchObject({ success: true, task_id: expect.stringMatching(UUID) });
      expect(answer.body.trace_id).toBe(answer.headers.get('x-trace-id'));
      const items = answer.body.data as { state: string; audio_url: string }[];
      expect(items.map((i) => i.state)).toEqual(['succeeded', 'succeeded']);
      const file = await fetch(items[0]?.audio_url ?? '');
      expect(await file.text()).toBe(`result of ${answer.body.task_id as string}`);
    });

    it('answers a failed task with its error and task id', async () => {
      const answer = await server.post('/tune/audios', generate('fail=upstream_error'), token);
      expectError(answer, 502, 'upstream_error');
      const record = await pollTask(server, 'tune', answer.body.task_id as string, token);
      expect(record).toMatchObject({
        state: 'failed',
        response: { success: false, error: { code: 'upstream_error' } },
      });
    });

    it('does not cancel the task when the client leaves', async () => {
      const controller = new AbortController();
      const pending = server
        .send('/tune/audios', generate('sleep=300'), token, {}, controller.signal)
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      controller.abort();
      await pending;
      const listing = await server.post('/tune/tasks', { action: 'retrieve_batch', limit: 1 }, token);
      const [latest] = listing.body.items as { id: string }[];
      const record = await pollTask(server, 'tune', latest?.id ?? '', token);
      expect(record.state).toBe('succeeded');
    });
  });

  describe('answering at once', () => {
    it('with "async": true, then retrieval until done', async () => {
      const started = Date.now();
      const answer = await server.post('/tune/audios', generate('sleep=200', { async: true }), token);
      expect(Date.now() - started).toBeLessThan(150);
      expectShape(answer.body, TaskAccepted);
      const id = answer.body.task_id as string;
      const early = await server.post('/tune/tasks', { action: 'retrieve', id }, token);
      expect(['queued', 'running']).toContain(early.body.state);
      expect(early.body.response).toBeUndefined();
      const done = await pollTask(server, 'tune', id, token);
      expectShape(done, TaskRecord);
      expect(done).toMatchObject({ state: 'succeeded', request: { prompt: 'sleep=200', async: true } });
      expect(done.elapsed as number).toBeGreaterThanOrEqual(0.2);
      expect((done.response as { data: unknown[] }).data).toHaveLength(2);
    });
  });

  describe('ndjson streams', () => {
    it('send a complete snapshot at each change, the terminal one last', async () => {
      const response = await server.send('/tune/audios', generate('sleep=300 progress=2'), token, NDJSON);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = await ndjsonLines(response);
      const states = lines.map((l) => (l.data as { state: string }[])[0]?.state ?? 'none');
      expect(states[0]).toBe('pending');
      expect(states.at(-1)).toBe('succeeded');
      expect(states).toContain('running');
      expect(lines.map((l) => (l.data as { title?: string }[])[0]?.title)).toEqual(
        expect.arrayContaining(['step 1 of 2', 'step 2 of 2']),
      );
      // How far it is, on every line: queued at 0, each step of the way, done at 1.
      const progress = lines.map((l) => l.progress as { fraction: number; stage: string });
      expect(progress[0]).toEqual({ fraction: 0, stage: 'queued' });
      expect(progress).toEqual(
        expect.arrayContaining([
          { fraction: 0.333, stage: 'step' },
          { fraction: 0.667, stage: 'step' },
        ]),
      );
      expect(progress.at(-1)).toEqual({ fraction: 1, stage: 'done' });
      const fractions = progress.map((p) => p.fraction);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
      for (const line of lines) {
        expectShape(line, tuneAudios.response);
        expect(line.task_id).toBe(lines[0]?.task_id);
      }
    });

    it('begin with the task as submitted, though a worker took it up before they subscribed', async () => {
      // Submitted and begun here, where no worker sees it: a worker that wins the race against the
      // stream's subscription leaves the task as this one is, running before the first read.
      const payer = await server.services.tokens.authenticate(`Bearer ${token}`);
      const { task } = await server.services.taskStore.submit({
        operation: tuneAudios,
        payer,
        traceId: randomUUID(),
        body: { ...generate('sleep=10'), model: 'tune-v4' },
        quote: { credits: 0, basis: '0 per request' },
        windows: [],
        deadlineMs: Date.now() + 60_000,
      });
      await server.services.taskStore.begin(task.id);
      const stream = server.services.watch.stream(task);
      const lines: { success: boolean; data?: { state: string }[] }[] = [];
      let heard = () => {};
      stream.on('data', (chunk: Buffer) => {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        heard();
      });
      const ended = new Promise((done) => stream.once('end', done));
      await new Promise<void>((done) => {
        heard = () => lines.length >= 2 && done();
        heard();
      });
      const failed = await server.services.taskStore.finish(task.id, 'failed', {});
      server.services.events.publish(eventOf(failed!));
      await ended;
      // A failed task's line carries its error and no items.
      expect(lines.map((l) => l.data?.[0]?.state ?? (l.success ? 'none' : 'failed'))).toEqual([
        'pending',
        'running',
        'failed',
      ]);
    });

    it('end with a failure line when the task fails', async () => {
      const response = await server.send('/tune/audios', generate('sleep=50 fail=busy'), token, NDJSON);
      const last = (await ndjsonLines(response)).at(-1);
      expect(last).toEqual({
        success: false,
        task_id: expect.stringMatching(UUID),
        trace_id: expect.stringMatching(UUID),
        error: { code: 'busy', message: 'failed as asked (busy)' },
        progress: { fraction: 0, stage: 'failed' },
      });
    });
  });

  describe('item words per family', () => {
    it('dance items carry status', async () => {
      const body = { model: 'dance-1-0-pro-250528', content: [{ type: 'text', text: 'sleep=10 a wave' }] };
      const answer = await server.post('/dance/videos', body, token);
      expectShape(answer.body, dance.response);
      expect((answer.body.data as { status: string }[])[0]?.status).toBe('succeeded');
    });

    it('vox results say complete, and processing while they run', async () => {
      const done = await server.post('/tune/vox', { audio_id: 'sleep=10' }, token);
      expectShape(done.body, tuneVox.response);
      expect(done.body.data).toMatchObject({ status: 'complete', source_clip_id: 'sleep=10' });
      const lines = await ndjsonLines(
        await server.send('/tune/audios', generate('sleep=100'), token, NDJSON),
      );
      expect(lines.length).toBeGreaterThanOrEqual(2);
    });

    it('QR art answers with the task itself, retrievable by id', async () => {
      const answer = await server.post('/qrart/tasks', { action: 'generate', content: 'sleep=10' }, token);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        id: expect.stringMatching(UUID),
        _id: answer.body.id,
        request: { content: 'sleep=10', ecl: 'H', trace_id: answer.body.trace_id },
        response: { success: true, seed: 7, image_width: 768, image_height: 768 },
      });
      const again = await server.post('/qrart/tasks', { action: 'retrieve', id: answer.body.id }, token);
      expect(again.body.response).toEqual(answer.body.response);
    });
  });

  describe('time limits', () => {
    let quick: TestServer;
    let quickToken: string;
    beforeAll(async () => {
      quick = await startServer(
        { 'limits.sync_wait_seconds': 1, 'tasks.expires_seconds': 2 },
        { backend, providers: testProviders() },
      );
      quickToken = await quick.token();
    });
    afterAll(() => quick.close());

    it('answers 504 with the task id when the wait runs out, and the task goes on', async () => {
      const answer = await quick.post('/tune/audios', generate('sleep=1400'), quickToken);
      expectError(answer, 504, 'timeout');
      const record = await pollTask(quick, 'tune', answer.body.task_id as string, quickToken);
      expect(record.state).toBe('succeeded');
    });

    it('expires a task that outlives its deadline', async () => {
      const answer = await quick.post('/tune/audios', generate('hang', { async: true }), quickToken);
      const record = await pollTask(quick, 'tune', answer.body.task_id as string, quickToken);
      expect(record).toMatchObject({
        state: 'expired',
        response: { success: false, error: { code: 'timeout' } },
      });
    });
  });
});
