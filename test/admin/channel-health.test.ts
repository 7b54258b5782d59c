/**
 * Channel health against OpenAI-compatible upstreams on loopback whose accounts fail, rate-limit,
 * run out of quota, lose their key and recover: probes and calls disable and re-enable channels,
 * calls only once several tokens' calls found the account at fault; a client's own bad request
 * never counts against one, nor can a client make an upstream blame the channel (a refusal that
 * quotes what it sent, a content policy's 403); an operator's disable holds, alerts arrive signed
 * (checked with the `standardwebhooks` package) and are counted in /metrics, and two nodes on one
 * PostgreSQL and Redis agree.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { until } from '../support/poll.js';
import { FLAGGED, startFakeAccount, type FakeAccount } from '../support/fake-account.js';
import { Redis } from 'ioredis';
import { provisionShared, REDIS_URL } from '../support/backends.js';
import { loadConfig } from '../../src/config/index.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const BASE = '/admin/api/v1';
const ask = { model: 'chatmodel-4o', messages: [{ role: 'user', content: 'ping' }] };

interface Alert {
  type: string;
  data: Record<string, unknown>;
}

let primary: FakeAccount;
let spare: FakeAccount;
let receiver: Server;
let alertsUrl = '';
/** Alerts whose signature verified; one that did not fails the test that waits for it. */
let alerts: Alert[] = [];
let unsigned = 0;
const servers: TestServer[] = [];

beforeAll(async () => {
  [primary, spare] = await Promise.all([startFakeAccount(), startFakeAccount()]);
  const verifier = new Webhook(SECRET);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      try {
        alerts.push(verifier.verify(body, req.headers as Record<string, string>) as Alert);
        res.writeHead(204).end();
      } catch {
        unsigned += 1;
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  alertsUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`;
});
afterAll(async () => {
  await Promise.all([primary.close(), spare.close()]);
  await new Promise((resolve) => receiver.close(resolve));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  primary.set('ok');
  spare.set('ok');
  primary.hits.length = 0;
  spare.hits.length = 0;
  alerts = [];
  expect(unsigned).toBe(0);
});

/** A server with channel `a` (first choice) and `b` (fallback); `a` probed every `probeA` s. */
async function start(probeA: number, overrides: Record<string, unknown> = {}): Promise<TestServer> {
  const server = await startServer({
    channels: [
      {
        name: 'a',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: primary.baseUrl,
        api_key: 'sk-a',
        models: ['chatmodel-*'],
        priority: 1,
        probe_interval_seconds: probeA,
      },
      {
        name: 'b',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: spare.baseUrl,
        api_key: 'sk-b',
        models: ['chatmodel-*'],
        priority: 2,
      },
    ],
    'health.probe_interval_seconds': 3600,
    'health.recheck_seconds': 0.1,
    'health.disable_after': 2,
    'alerts.webhook_url': alertsUrl,
    'alerts.webhook_secret': SECRET,
    'outbound.allow_private': true,
    'callbacks.backoff_seconds': [0.2],
    'routing.backoff_ms': 5,
    ...overrides,
  });
  servers.push(server);
  return server;
}

async function admin(server: TestServer, method: string, path: string, body?: unknown) {
  const token = (await server.services.tokens.create({ name: `ops-${Math.random()}`, role: 'admin' })).secret;
  const response = await fetch(`${server.url}${BASE}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** A channel's row in the admin API's list. */
async function channel(server: TestServer, id: string): Promise<Record<string, unknown>> {
  const list = (await admin(server, 'GET', '/channels')) as unknown as { rows: Record<string, unknown>[] };
  const row = list.rows.find((c) => c.id === id);
  if (!row) throw new Error(`no channel ${id} in ${JSON.stringify(list)}`);
  return row;
}

const stateOf = async (server: TestServer, id: string) => (await channel(server, id)).state;

const chatHits = (fake: FakeAccount) => fake.hits.filter((h) => h.path === '/chat/completions').length;

/** A counter of the server's /metrics with these labels, 0 before it first counts. */
async function counter(server: TestServer, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels === '' ? '' : `{${labels}}`} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/**
 * Waits until the counter went `more` past where it stands now: what a sweep (a probe, a balance
 * check) would have changed, it has had its chance to change.
 */
async function moreOf(server: TestServer, name: string, labels: string, more: number): Promise<void> {
  const from = await counter(server, name, labels);
  await until(
    `${more} more of ${name}{${labels}}`,
    async () => (await counter(server, name, labels)) >= from + more,
  );
}

const queuedAlerts = (server: TestServer, event: string) =>
  counter(server, 'switchyard_alerts_total', `event="${event}",outcome="queued"`);

describe('channel health', () => {
  it("disables a channel once three tokens' calls found its quota spent, and a probe brings it back", async () => {
    // No probe runs by itself here, nor does `a` cool: what the calls find is all there is to go by.
    const server = await start(3600, { 'health.recheck_seconds': 3600, 'routing.cooldown_after': 100 });
    const [one, two, three] = await Promise.all([server.token(), server.token(), server.token()]);
    primary.set('no_quota');
    // Each call falls back to `b`; one token's calls, however many, are one witness.
    for (const token of [one, one, one, two]) {
      expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
      expect(await stateOf(server, 'a')).toBe('ok');
    }
    expect(chatHits(primary)).toBe(4);
    expect((await server.post('/chatmodel/chat/completions', ask, three)).status).toBe(200);
    expect(chatHits(primary)).toBe(5);
    const row = await channel(server, 'a');
    expect(row).toMatchObject({
      state: 'auto_disabled',
      auto_reason: expect.stringMatching(/^calls of 3 tokens, last: 429 insufficient_quota: .*quota/),
    });
    // `a` is not asked again, whichever token calls.
    expect((await server.post('/chatmodel/chat/completions', ask, one)).status).toBe(200);
    expect(chatHits(primary)).toBe(5);
    const down = await until('the disable alert', () => alerts.find((a) => a.data.to === 'auto_disabled'));
    expect(down).toMatchObject({ type: 'channel.state_changed', data: { channel: 'a', from: 'ok' } });

    primary.set('ok');
    expect((await admin(server, 'POST', '/channels/a/probe')).state).toBe('ok');
    await until('the re-enable alert', () => alerts.find((a) => a.data.to === 'ok'));
    expect((await server.post('/chatmodel/chat/completions', ask, one)).status).toBe(200);
    expect(chatHits(primary)).toBe(6);
  });

  it("has a channel probed at once when one token's call found its key refused; the probe disables it", async () => {
    const server = await start(3600);
    const token = await server.token();
    primary.set('revoked');
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    await until('a probe disables a', async () => (await stateOf(server, 'a')) === 'auto_disabled');
    expect((await channel(server, 'a')).auto_reason).toMatch(/^probe: HTTP 401 .*Incorrect API key/);
    expect(primary.hits.filter((h) => h.path === '/models').length).toBeGreaterThanOrEqual(1);
  });

  it('answers 503 busy while every channel of the model is disabled by its health', async () => {
    const server = await start(3600, {
      channels: [
        {
          name: 'a',
          capability: 'chat',
          type: 'openai-compatible',
          base_url: primary.baseUrl,
          api_key: 'sk-a',
          models: ['chatmodel-*'],
          probe_interval_seconds: 3600,
        },
      ],
    });
    const token = await server.token();
    primary.set('revoked');
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(502);
    await until('a probe disables a', async () => (await stateOf(server, 'a')) === 'auto_disabled');
    const answer = await server.post('/chatmodel/chat/completions', ask, token);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({
      code: 'busy',
      message: expect.stringMatching(/disabled until a health probe succeeds/),
    });
    expect(chatHits(primary)).toBe(1);
  });

  it("never disables a channel on what a client sends: a content policy's 403 quoting the prompt", async () => {
    // Even where one token's calls would be enough to disable a channel.
    const server = await start(0.1, { 'health.account_fault_tokens': 1 });
    const token = await server.token();
    // Words that once read as the account's fault, in a prompt the upstream quotes back.
    const words = 'insufficient_quota insufficient quota invalid_api_key 401 402 billing_hard_limit_reached';
    const flagged = { ...ask, messages: [{ role: 'user', content: `${FLAGGED} ${words}` }] };
    for (let i = 0; i < 6; i += 1) {
      // The request's fault: passed on as the client's, tried nowhere else.
      const refused = await server.post('/chatmodel/chat/completions', flagged, token);
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(/content_policy_violation/);
    }
    expect(chatHits(primary)).toBe(6);
    expect(chatHits(spare)).toBe(0);
    expect(server.services.board.isAutoDisabled('a')).toBe(false);
    expect(server.services.board.isAutoDisabled('b')).toBe(false);
    // Probes ran since, and found the account sound.
    await moreOf(server, 'switchyard_channel_probes_total', 'channel="a",outcome="ok"', 2);
    expect(await stateOf(server, 'a')).toBe('ok');
    expect((await channel(server, 'a')).auto_reason).toBeNull();
    expect(await queuedAlerts(server, 'channel.state_changed')).toBe(0);
  });

  it("disables a channel once several tokens' calls found its key refused, and alerts the reason it keeps", async () => {
    const server = await start(3600, { 'health.recheck_seconds': 3600 });
    primary.set('revoked');
    const tokens = await Promise.all([server.token(), server.token(), server.token()]);
    for (const token of tokens)
      expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(await stateOf(server, 'a')).toBe('auto_disabled');
    const reason = String((await channel(server, 'a')).auto_reason);
    expect(reason).toMatch(/^calls of 3 tokens, last: 401 invalid_api_key: Incorrect API key/);
    const alert = await until('the disable alert', () => alerts.find((a) => a.data.to === 'auto_disabled'));
    expect(alert?.data.reason).toBe(reason);
  });

  it("passes a client's bad request on and never counts it against the channel", async () => {
    const server = await start(3600);
    const token = await server.token();
    const long = { ...ask, messages: [{ role: 'user', content: 'word '.repeat(400) }] };
    for (let i = 0; i < 6; i += 1) {
      const answer = await server.post('/chatmodel/chat/completions', long, token);
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/maximum context length/);
    }
    // Each went to `a` alone: no retry, no fallback, no cooling, no disable.
    expect(chatHits(primary)).toBe(6);
    expect(chatHits(spare)).toBe(0);
    expect(await stateOf(server, 'a')).toBe('ok');
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(chatHits(primary)).toBe(7);
    expect(alerts).toEqual([]);
  });

  it('disables a failing channel after N failed probes and re-enables it when it recovers', async () => {
    const server = await start(0.1);
    const token = await server.token();
    primary.set('failing');
    await until('a is disabled', async () => (await stateOf(server, 'a')) === 'auto_disabled');
    const row = await channel(server, 'a');
    expect(row.auto_reason).toMatch(/2 failed in a row, last HTTP 500/);
    expect(row.last_probe).toMatchObject({ ok: false, detail: 'HTTP 500' });
    // While it is disabled, calls go to `b` without trying `a`.
    const before = chatHits(primary);
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    expect(chatHits(primary)).toBe(before);
    primary.set('ok');
    await until('a is enabled', async () => (await stateOf(server, 'a')) === 'ok');
    await until('both alerts', () => alerts.length === 2);
    expect(alerts.map((a) => a.data.to)).toEqual(['auto_disabled', 'ok']);
    // The probe sent the channel's key, to a request that costs nothing.
    expect(primary.hits.some((h) => h.method === 'GET' && h.path === '/models')).toBe(true);

    expect(await counter(server, 'switchyard_channel_state_changes_total', 'state="auto_disabled"')).toBe(1);
    expect(await counter(server, 'switchyard_channel_state_changes_total', 'state="ok"')).toBe(1);
    // Counted once the receiver's answer is in, which may be after the test saw the alert.
    await until(
      'both alerts counted as delivered',
      async () =>
        (await counter(
          server,
          'switchyard_alerts_total',
          'event="channel.state_changed",outcome="delivered"',
        )) === 2,
    );
  });

  it("cools a rate-limited channel for the upstream's Retry-After, without disabling it", async () => {
    // No probe while it cools: the cooldown is the call's alone.
    const server = await start(3600, { 'health.recheck_seconds': 3600 });
    const token = await server.token();
    primary.set('rate_limited');
    const before = Date.now();
    expect((await server.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
    const after = Date.now();
    // One call, no retry on `a`: the upstream said how long to wait.
    expect(chatHits(primary)).toBe(1);
    expect(await stateOf(server, 'a')).toBe('cooling');
    primary.set('ok');
    // Retry-After is 3 s from the refusal (not `routing.cooldown_seconds`, 30 s).
    expect(server.services.board.isCooling('a', before + 2999)).toBe(true);
    expect(server.services.board.isCooling('a', after + 3000)).toBe(false);
    await until('a is no longer cooling', async () => (await stateOf(server, 'a')) === 'ok', 5000);
    expect(await queuedAlerts(server, 'channel.state_changed')).toBe(0);
    expect(alerts).toEqual([]);
  });

  it("keeps an operator's disable while probes succeed, until the operator enables it", async () => {
    const server = await start(0.1);
    primary.set('revoked');
    await until('a is disabled', async () => (await stateOf(server, 'a')) === 'auto_disabled');
    expect((await channel(server, 'a')).auto_reason).toMatch(/401 .*Incorrect API key/);
    expect((await admin(server, 'POST', '/channels/a/disable')).state).toBe('disabled');
    primary.set('ok');
    // Three scheduled probes come and are held back by the operator's disable, which holds.
    await moreOf(server, 'switchyard_channel_probes_total', 'channel="a",outcome="skipped"', 3);
    expect(await stateOf(server, 'a')).toBe('disabled');
    expect((await admin(server, 'POST', '/channels/a/enable')).state).toBe('ok');
    // The operator's switches are alerted too, with who made them.
    await until('three alerts', () => alerts.length === 3);
    expect(alerts.map((a) => [a.data.from, a.data.to])).toEqual([
      ['ok', 'auto_disabled'],
      ['auto_disabled', 'disabled'],
      ['disabled', 'ok'],
    ]);
    expect(alerts[1]?.data.reason).toMatch(/^disabled by ops-/);
  });

  it('judges only whether an upstream answers where its probe cannot carry the key', async () => {
    // A search channel's key goes in its own header: its probe asks the base URL without one.
    const server = await start(3600, {
      channels: [
        {
          name: 'search',
          capability: 'serp',
          type: 'searxng',
          base_url: primary.baseUrl,
          api_key: 'sx-key',
          probe_interval_seconds: 0.1,
        },
      ],
    });
    primary.set('revoked');
    // Three probes answered 401 and judged: the upstream answers, which is all that was asked.
    await moreOf(server, 'switchyard_channel_probes_total', 'channel="search",outcome="ok"', 3);
    expect(await stateOf(server, 'search')).toBe('ok');
    primary.set('failing');
    await until('search is disabled', async () => (await stateOf(server, 'search')) === 'auto_disabled');
    primary.set('ok');
    await until('search is enabled', async () => (await stateOf(server, 'search')) === 'ok');
  });

  it('alerts once when a balance falls under the threshold, and again after a top-up and a new fall', async () => {
    const server = await start(3600, {
      'alerts.low_balance_credits': 100,
      'alerts.balance_check_seconds': 0.1,
    });
    await server.token({ name: 'rich', credits: 500 });
    await server.token({ name: 'poor', credits: 40 });
    const low = await until('the low-balance alert', () =>
      alerts.find((a) => a.type === 'account.low_balance'),
    );
    expect(low?.data).toMatchObject({ name: 'poor', credits: 40, threshold: 100 });
    // Two more checks find it still under the threshold and raise nothing more.
    await moreOf(server, 'switchyard_balance_checks_total', '', 2);
    expect(await queuedAlerts(server, 'account.low_balance')).toBe(1);

    await admin(server, 'POST', '/tokens/poor/credits', { delta: 100 });
    // A whole check after the top-up forgets the alert, so that the next fall alerts again.
    await moreOf(server, 'switchyard_balance_checks_total', '', 2);
    await admin(server, 'POST', '/tokens/poor/credits', { delta: -130 });
    await until(
      'the second alert',
      () => alerts.filter((a) => a.type === 'account.low_balance').length === 2,
    );
    expect(alerts.filter((a) => a.type === 'account.low_balance').map((a) => a.data.credits)).toEqual([
      40, 10,
    ]);
    expect(alerts.some((a) => a.data.name === 'rich')).toBe(false);
  });

  it("alerts on an account's own low-balance line and once per used-up budget window", async () => {
    const server = await start(3600, { 'alerts.balance_check_seconds': 0.1, prices: { 'serp.web': 1 } });
    await admin(server, 'POST', '/accounts', {
      name: 'metered',
      credits: 60,
      low_balance: 58,
      budgets: [{ credits: 3, period: 'day' }],
    });
    const key = (
      (await admin(server, 'POST', '/tokens', { name: 'metered-key', account: 'metered' })) as {
        token: string;
      }
    ).token;
    for (let i = 0; i < 3; i += 1)
      expect((await server.post('/serp/web', { query: 'x' }, key)).status).toBe(200);
    const used = await until('the used-up alert', () => alerts.find((a) => a.type === 'budget.used_up'));
    expect(used?.data).toMatchObject({ name: 'account metered', period: 'day', credits: 3, used: 3 });
    const low = await until('the low-balance alert', () =>
      alerts.find((a) => a.type === 'account.low_balance' && a.data.name === 'metered'),
    );
    expect(low?.data).toMatchObject({ credits: 57, threshold: 58 });
    // Later checks find the same window used up and raise nothing more.
    await moreOf(server, 'switchyard_balance_checks_total', '', 2);
    expect(await queuedAlerts(server, 'budget.used_up')).toBe(1);
  });

  it('refuses an alert webhook without its secret, and a secret that is not one, naming the key', () => {
    expect(() => loadConfig({ env: {}, overrides: { 'alerts.webhook_url': alertsUrl } })).toThrow(
      /alerts\.webhook_secret: is required with alerts\.webhook_url/,
    );
    expect(() =>
      loadConfig({
        env: {},
        overrides: { 'alerts.webhook_url': alertsUrl, 'alerts.webhook_secret': 'hunter2' },
      }),
    ).toThrow(/alerts\.webhook_secret: must be whsec_ followed by base64/);
  });

  it('holds a change made on one node on another, told through Redis, and alerts it once', async () => {
    const shared = await provisionShared();
    try {
      // Only the first node probes `a`: the second learns of its state from the database.
      const one = await start(0.1, shared.overrides);
      const two = await start(3600, { ...shared.overrides, 'health.recheck_seconds': 3600 });
      // The changes are announced in Redis, for the nodes to read them at once.
      const listener = new Redis(REDIS_URL);
      const announced: string[] = [];
      listener.on('message', (channel: string) => announced.push(channel));
      await listener.subscribe(`${String(shared.overrides['redis.prefix'])}:channel-states`);
      const token = await two.token();
      primary.set('revoked');
      await until('node one disables a', () => one.services.board.isAutoDisabled('a'));
      await until('node two disables a', () => two.services.board.isAutoDisabled('a'));
      const before = chatHits(primary);
      expect((await two.post('/chatmodel/chat/completions', ask, token)).status).toBe(200);
      expect(chatHits(primary)).toBe(before);

      primary.set('ok');
      await until('node one enables a', () => !one.services.board.isAutoDisabled('a'));
      await until('node two enables a', () => !two.services.board.isAutoDisabled('a'));
      // One alert per change, though two nodes hold the channel: the node whose write made it.
      await until('both alerts', () => alerts.length >= 2);
      expect(alerts.map((a) => a.data.to)).toEqual(['auto_disabled', 'ok']);
      expect(await queuedAlerts(one, 'channel.state_changed')).toBe(2);
      expect(await queuedAlerts(two, 'channel.state_changed')).toBe(0);
      expect(announced.length).toBeGreaterThanOrEqual(2);
      await listener.quit();
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.close()));
      await shared.release();
    }
  });
});
