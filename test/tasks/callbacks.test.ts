/**
 * Callbacks to a receiver on loopback that checks every signature with the standardwebhooks
 * package, and answers as each test asks: fine, failing, slow, or gone.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';
import { pollTask } from '../support/poll.js';

interface Received {
  path: string;
  id: string;
  body: Record<string, unknown>;
  verified: boolean;
  at: number;
}

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let receiver: Server;
  let base: string;
  let token: string;
  let secret: string;
  const received: Received[] = [];
  const replies = new Map<string, number[]>();

  function readBody(req: IncomingMessage): Promise<string> {
    return new Promise((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(text));
    });
  }

  beforeAll(async () => {
    receiver = createServer(async (req, res) => {
      const text = await readBody(req);
      let verified = false;
      try {
        new Webhook(secret).verify(text, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const path = req.url ?? '';
      received.push({
        path,
        id: String(req.headers['webhook-id']),
        body: JSON.parse(text),
        verified,
        at: Date.now(),
      });
      const count = received.filter((r) => r.path === path).length;
      const plan = replies.get(path.split('?')[0] ?? '') ?? [200];
      const status = plan[Math.min(count - 1, plan.length - 1)] ?? 200;
      if (status === 0) await new Promise((r) => setTimeout(r, 800)); // slower than the callback timeout
      res.writeHead(status === 0 ? 200 : status).end('ok');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    server = await startServer(
      {
        'outbound.allow_cidrs': ['127.0.0.1/32'],
        'callbacks.backoff_seconds': [0.1, 0.1, 0.1],
        'callbacks.timeout_ms': 400,
        'callbacks.poll_ms': 50,
      },
      { backend, providers: testProviders() },
    );
    const created = await server.services.tokens.create({ name: 'hooks' });
    token = created.secret;
    secret = created.token.webhookSecret;
  });
  afterAll(async () => {
    await server.close();
    receiver.close();
  });

  async function submit(path: string, prompt = 'sleep=10'): Promise<string> {
    const answer = await server.post(
      '/tune/audios',
      { action: 'generate', prompt, callback_url: `${base}${path}` },
      token,
    );
    expect(answer.body).toMatchObject({ success: true, task_id: expect.any(String) });
    return answer.body.task_id as string;
  }

  async function settled(id: string, state: string) {
    return pollTask(
      server,
      'tune',
      id,
      token,
      (t) => (t.callback as { state?: string } | undefined)?.state === state,
    );
  }

  describe('callbacks', () => {
    it('POSTs the final envelope, signed with the token’s secret', async () => {
      replies.set('/ok', [200]);
      const id = await submit('/ok?sig=abc');
      const record = await settled(id, 'delivered');
      const hit = received.filter((r) => r.path.startsWith('/ok'));
      expect(hit).toHaveLength(1);
      expect(hit[0]?.verified).toBe(true);
      expect(hit[0]?.body).toMatchObject({ success: true, task_id: id, trace_id: record.trace_id });
      expect((hit[0]?.body.data as unknown[]).length).toBe(2);
      expect(record.callback).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200 });
      // The kept request shows the URL without its secret-looking parameter.
      expect((record.request as { callback_url: string }).callback_url).toBe(`${base}/ok?sig=redacted`);
    });

    it('sends the failure envelope for a failed task', async () => {
      replies.set('/failed', [200]);
      const id = await submit('/failed', 'fail=upstream_error');
      await settled(id, 'delivered');
      const hit = received.find((r) => r.path === '/failed');
      expect(hit?.body).toMatchObject({ success: false, task_id: id, error: { code: 'upstream_error' } });
    });

    it('retries after a 500, with the same webhook-id', async () => {
      replies.set('/flaky', [500, 500, 200]);
      const id = await submit('/flaky');
      const record = await settled(id, 'delivered');
      const hits = received.filter((r) => r.path === '/flaky');
      expect(hits).toHaveLength(3);
      expect(new Set(hits.map((h) => h.id)).size).toBe(1);
      expect(hits.every((h) => h.verified)).toBe(true);
      expect(record.callback).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
    });

    it('retries after a timeout', async () => {
      replies.set('/slow', [0, 200]);
      const id = await submit('/slow');
      const record = await settled(id, 'delivered');
      expect(received.filter((r) => r.path === '/slow')).toHaveLength(2);
      expect(record.callback).toMatchObject({ attempts: 2 });
    });

    it('stops at once on 410', async () => {
      replies.set('/gone', [410, 200]);
      const id = await submit('/gone');
      const record = await settled(id, 'gone');
      await new Promise((r) => setTimeout(r, 500));
      expect(received.filter((r) => r.path === '/gone')).toHaveLength(1);
      expect(record.callback).toMatchObject({ state: 'gone', attempts: 1, last_status: 410 });
    });

    it('gives up after the last retry of the schedule', async () => {
      replies.set('/down', [503]);
      const id = await submit('/down');
      const record = await settled(id, 'failed');
      expect(received.filter((r) => r.path === '/down')).toHaveLength(4);
      expect(record.callback).toMatchObject({ state: 'failed', attempts: 4, last_status: 503 });
    });
  });
});
