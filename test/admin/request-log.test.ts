/**
 * The request log says what the client got: the status, the error code and the latency of the
 * answer, read right after the answer, for a task the client waited for, streamed, or did not
 * wait for (answered 200, failed later), on both backends. And a waited QR code whose content
 * image is not an image, on the local renderer: answered 400, logged 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';
import { ndjsonLines, pollTask } from '../support/poll.js';

async function logRow(server: TestServer, admin: string, traceId: string) {
  const answer = await fetch(`${server.url}/admin/api/v1/requests?limit=50`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  const rows = ((await answer.json()) as { rows: Record<string, unknown>[] }).rows;
  return rows.find((row) => row.trace_id === traceId);
}

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let admin: string;
  let client: string;

  beforeAll(async () => {
    server = await startServer({}, { backend, providers: testProviders() });
    admin = await server.token({ name: 'ops', role: 'admin' });
    client = await server.token({ name: 'client', credits: 1000 });
  });
  afterAll(() => server?.close());

  it('logs a failed waited task with the status and code it was answered', async () => {
    const answer = await server.post(
      '/tune/audios',
      { action: 'generate', prompt: 'fail=upstream_error' },
      client,
    );
    expect(answer.status).toBe(502);
    const row = await logRow(server, admin, answer.headers.get('x-trace-id') as string);
    expect(row).toMatchObject({
      status: 502,
      success: false,
      error_code: 'upstream_error',
      credits: 0,
      task_id: answer.body.task_id,
    });
    expect(row?.latency_ms).toBeGreaterThan(0);
  });

  it('logs a failed streamed task with its 200, the code of its last line and the stream’s length', async () => {
    const response = await server.send(
      '/tune/audios',
      { action: 'generate', prompt: 'sleep=150 fail=upstream_error' },
      client,
      { accept: 'application/x-ndjson' },
    );
    expect(response.status).toBe(200);
    const lines = await ndjsonLines(response);
    expect(lines.at(-1)).toMatchObject({ success: false, error: { code: 'upstream_error' } });
    const row = await logRow(server, admin, response.headers.get('x-trace-id') as string);
    expect(row).toMatchObject({ status: 200, success: false, error_code: 'upstream_error', credits: 0 });
    expect(row?.latency_ms).toBeGreaterThanOrEqual(150);
  });

  it('logs a task not waited for with its 200, and the code it failed with once it failed', async () => {
    for (const prompt of ['fail=upstream_error', 'sleep=150 fail=upstream_error']) {
      const answer = await server.post('/tune/audios', { action: 'generate', prompt, async: true }, client);
      expect(answer.status).toBe(200);
      const traceId = answer.headers.get('x-trace-id') as string;
      await pollTask(server, 'tune', answer.body.task_id as string, client);
      const row = await logRow(server, admin, traceId);
      expect(row).toMatchObject({ status: 200, success: false, error_code: 'upstream_error', credits: 0 });
      expect(row?.latency_ms).toBeGreaterThan(0);
    }
  });

  it('counts those requests as failed in the usage report', async () => {
    const answer = await fetch(
      `${server.url}/admin/api/v1/usage?token=client&operation=tune.audios&group_by=token`,
      {
        headers: { authorization: `Bearer ${admin}` },
      },
    );
    const [row] = ((await answer.json()) as { rows: Record<string, unknown>[] }).rows;
    expect(row).toMatchObject({ requests: 4, succeeded: 0, failed: 4 });
  });
});

describe('a waited QR code on the local renderer', () => {
  let server: TestServer;
  let admin: string;
  let client: string;

  beforeAll(async () => {
    server = await startServer();
    admin = await server.token({ name: 'ops', role: 'admin' });
    client = await server.token();
  });
  afterAll(() => server?.close());

  it('whose content image is not an image is logged as the 400 it was answered', async () => {
    const answer = await server.post(
      '/qrart/tasks',
      {
        content: 'x',
        content_image_url: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`,
      },
      client,
    );
    expect(answer.status).toBe(400);
    const row = await logRow(server, admin, answer.headers.get('x-trace-id') as string);
    expect(row).toMatchObject({ status: 400, success: false, error_code: 'bad_request', credits: 0 });
    expect(row?.latency_ms).toBeGreaterThan(0);
  });
});
