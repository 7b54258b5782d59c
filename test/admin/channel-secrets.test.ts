/**
 * Credentials a channel derives from its key stay out of what the operator reads. A Kling channel
 * signs a JWT from its `ACCESS:SECRET` key for every call; a Kling on loopback that refuses it
 * (HTTP 401, code 1002, as Kling documents) and quotes the Authorization header back in its
 * message must not put that token, nor the key or its parts, into the channel's `auto_reason`,
 * its last probe's detail or the alert, whether a probe or the calls of several tokens found it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollTask, until } from '../support/poll.js';
import { startServer, type TestServer } from '../support/server.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const ACCESS = 'ak-7d1f0c2e';
const SIGNING = 'sk-4b9e8a61f0d2c3b5';
const JWT_SHAPE = /eyJ[\w-]+\.[\w-]+/;

let kling: Server;
let klingUrl = '';
/** The Authorization headers Kling received, to look for in what the operator reads. */
const sent = new Set<string>();
let receiver: Server;
let alertsUrl = '';
let alerts: { type: string; data: Record<string, unknown> }[] = [];
const servers: TestServer[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  // Every call refused as Kling refuses a token it cannot verify, the token quoted back.
  kling = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const authorization = req.headers.authorization ?? '';
      sent.add(authorization);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 1002,
          message: `Authorization is invalid: ${authorization} (issuer ${ACCESS})`,
          request_id: 'req-1',
        }),
      );
    });
  });
  klingUrl = await listen(kling);
  const verifier = new Webhook(SECRET);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      alerts.push(
        verifier.verify(Buffer.concat(chunks).toString(), req.headers as Record<string, string>) as {
          type: string;
          data: Record<string, unknown>;
        },
      );
      res.writeHead(204).end();
    });
  });
  alertsUrl = `${await listen(receiver)}/alerts`;
});
afterAll(async () => {
  kling.closeAllConnections();
  await new Promise((resolve) => kling.close(resolve));
  await new Promise((resolve) => receiver.close(resolve));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  alerts = [];
  sent.clear();
});

async function start(probeSeconds: number): Promise<TestServer> {
  const server = await startServer({
    channels: [
      {
        name: 'kling',
        capability: 'clip',
        type: 'kling',
        base_url: klingUrl,
        api_key: `${ACCESS}:${SIGNING}`,
        models: ['clip-*'],
        probe_interval_seconds: probeSeconds,
      },
    ],
    'health.probe_interval_seconds': 3600,
    'health.recheck_seconds': probeSeconds,
    'alerts.webhook_url': alertsUrl,
    'alerts.webhook_secret': SECRET,
    'outbound.allow_private': true,
  });
  servers.push(server);
  return server;
}

async function klingRow(server: TestServer): Promise<Record<string, unknown>> {
  const admin = (await server.services.tokens.create({ name: `ops-${Math.random()}`, role: 'admin' })).secret;
  const response = await fetch(`${server.url}/admin/api/v1/channels`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  const { rows } = (await response.json()) as { rows: Record<string, unknown>[] };
  return rows.find((row) => row.id === 'kling') as Record<string, unknown>;
}

/** What the operator reads of the channel and its alert: no token, no key, no part of one. */
async function expectNoCredentials(server: TestServer): Promise<void> {
  const row = await until('kling is disabled', async () => {
    const found = await klingRow(server);
    return found.state === 'auto_disabled' ? found : undefined;
  });
  const alert = await until('the disable alert', () => alerts.find((a) => a.data.to === 'auto_disabled'));
  // Kling's own words are kept: the operator learns why.
  expect(row?.auto_reason).toMatch(/Authorization is invalid: Bearer \*\*\*/);
  expect(sent.size).toBeGreaterThan(0);
  const read = JSON.stringify([row, alert]);
  for (const authorization of sent) expect(read).not.toContain(authorization.replace(/^Bearer /, ''));
  expect(read).not.toMatch(JWT_SHAPE);
  expect(read).not.toContain(SIGNING);
  expect(read).not.toContain(ACCESS);
}

describe('credentials derived from a channel key', () => {
  it('stay out of the reason, the probe detail and the alert when a probe finds the token refused', async () => {
    const server = await start(0.1);
    await expectNoCredentials(server);
    expect(String((await klingRow(server)).auto_reason)).toMatch(/^probe: HTTP 401/);
  });

  it("stay out of the reason and the alert when several tokens' calls find it refused", async () => {
    const server = await start(3600);
    for (let i = 0; i < 3; i += 1) {
      const token = await server.token();
      const submitted = await server.post(
        '/clip/videos',
        { action: 'text2video', prompt: 'a kite', callback_url: 'http://127.0.0.1:9/hook' },
        token,
      );
      expect(submitted.status, submitted.text).toBe(200);
      const task = await pollTask(server, 'clip', submitted.body.task_id as string, token);
      expect(task.state).toBe('failed');
      expect(JSON.stringify(task)).not.toMatch(JWT_SHAPE);
    }
    await expectNoCredentials(server);
    expect(String((await klingRow(server)).auto_reason)).toMatch(/^calls of 3 tokens, last: 401 1002:/);
  });
});
