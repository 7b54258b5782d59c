/**
 * Accounts over HTTP: three tokens of one account spend one balance, on SQLite and on PostgreSQL +
 * Redis through two API nodes. 1,000 concurrent charged searches against a balance that covers
 * 600: exactly 600 are answered, the balance ends at zero and equals its ledger. 200 concurrent
 * redemptions of one single-use code from twenty tokens: exactly one adds its credits.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKENDS, provisionShared, type Provisioned } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';
import { jsonCall } from '../support/json-call.js';

vi.setConfig({ testTimeout: 120_000 });

const BASE = '/admin/api/v1';
/** Every request may run at once: the per-token defaults (50/s, 16 at a time) would refuse them. */
const UNLIMITED_RATES = { 'tokens.default_rate_per_second': null, 'tokens.default_concurrency': null };

describe.each(BACKENDS)('%s', (backend) => {
  let shared: Provisioned | undefined;
  let nodes: TestServer[] = [];
  let admin: string;

  beforeAll(async () => {
    const prices = { prices: { 'serp.web': 1 }, ...UNLIMITED_RATES };
    if (backend === 'embedded') {
      nodes = [await startServer(prices, { backend, providers: testProviders() })];
    } else {
      shared = await provisionShared();
      const overrides = { ...shared.overrides, ...prices };
      nodes = [
        await startServer(overrides, { providers: testProviders() }),
        await startServer(overrides, { providers: testProviders() }),
      ];
    }
    admin = (await nodes[0]!.services.tokens.create({ name: 'ops', role: 'admin' })).secret;
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await shared?.release();
  });

  const adminCall = (method: string, path: string, body?: unknown) =>
    jsonCall(nodes[0]!.url, method, `${BASE}${path}`, admin, body);

  async function tokensOf(account: string, count: number): Promise<string[]> {
    const secrets: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const made = await adminCall('POST', '/tokens', { name: `${account}-key${i}`, account });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body).toMatchObject({ account, unlimited: false });
      secrets.push(made.body.token as string);
    }
    return secrets;
  }

  it('lets exactly 600 of 1,000 concurrent requests from three tokens spend a balance of 600', async () => {
    const made = await adminCall('POST', '/accounts', { name: 'acme', credits: 600 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const keys = await tokensOf('acme', 3);
    // A token with an account of its own is refused a second balance: the account holds it.
    const second = await adminCall('POST', '/tokens', { name: 'acme-extra', account: 'acme', credits: 5 });
    expect(second.status).toBe(400);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        jsonCall(nodes[i % nodes.length]!.url, 'POST', '/serp/web', keys[i % 3]!, { query: `q${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(600);
    expect(statuses.filter((s) => s === 403)).toHaveLength(400);
    const refused = answers.find((a) => a.status === 403)!.body.error as { code: string };
    expect(refused.code).toBe('used_up');
    // Each token spent through the one account; its ledger sums to its balance, 0.
    const account = await adminCall('GET', '/accounts/acme');
    expect(account.body).toMatchObject({ balance: 0, tokens: [{}, {}, {}] });
    const rows: { delta: number; token: string | null; kind: string }[] = [];
    for (let before: string | null = null; ;) {
      const page = await adminCall(
        'GET',
        `/ledger?account=acme&limit=500${before ? `&before=${before}` : ''}`,
      );
      rows.push(...(page.body.rows as typeof rows));
      before = page.body.next as string | null;
      if (!before) break;
    }
    expect(rows.reduce((sum, r) => sum + r.delta, 0)).toBe(0);
    const charges = rows.filter((r) => r.kind === 'charge');
    expect(charges.reduce((sum, r) => sum - r.delta, 0)).toBe(600);
    const spenders = new Set(charges.map((r) => r.token));
    expect([...spenders].sort()).toEqual(['acme-key0', 'acme-key1', 'acme-key2']);
    // Every token sees the account's balance, the one it spends.
    for (const key of keys) {
      const own = await jsonCall(nodes[0]!.url, 'GET', '/v1/account', key);
      expect(own.body).toMatchObject({ account: 'acme', balance: 0, unlimited: false });
    }
  });

  it('lets one of 200 concurrent redemptions of a single-use code add its credits', async () => {
    await adminCall('POST', '/accounts', { name: 'redeemers', credits: 0 });
    const keys = await tokensOf('redeemers', 20);
    const batch = await adminCall('POST', '/codes', { credits: 250, count: 1 });
    const [code] = batch.body.codes as string[];
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        jsonCall(nodes[i % nodes.length]!.url, 'POST', '/v1/account/redeem', keys[i % 20]!, { code }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(199);
    expect(answers.find((a) => a.status === 200)!.body).toEqual({ credits: 250, balance: 250 });
    expect((await adminCall('GET', '/accounts/redeemers')).body.balance).toBe(250);
  });
});
