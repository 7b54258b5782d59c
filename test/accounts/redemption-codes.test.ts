/**
 * Redemption codes over HTTP, on SQLite and on PostgreSQL + Redis: an admin makes a batch (its
 * codes shown once, stored as hashes), a client redeems a code onto its balance (a `redeem`
 * ledger entry naming the batch), each use counted once however many redeem at the same moment;
 * unknown, used-up, expired and disabled codes are one 400 naming `code`; an unlimited token is
 * refused without spending the use; more than ten failures a minute are refused 429.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';
import { jsonCall } from '../support/json-call.js';

vi.setConfig({ testTimeout: 30_000 });

const BASE = '/admin/api/v1';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startServer({}, { backend, providers: testProviders() });
    admin = (await server.services.tokens.create({ name: 'ops', role: 'admin' })).secret;
  });
  afterAll(() => server?.close());

  const call = (method: string, path: string, token: string, body?: unknown) =>
    jsonCall(server.url, method, path, token, body);

  const codesOf = async (spec: Record<string, unknown>) => {
    const made = await call('POST', `${BASE}/codes`, admin, spec);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body as { batch: string; codes: string[] };
  };

  const client = async (name: string, credits: number | null = 0) => {
    const made = await call('POST', `${BASE}/tokens`, admin, { name, credits });
    return made.body.token as string;
  };

  const refusal = (answer: { status: number; body: Record<string, unknown> }) => {
    const error = answer.body.error as { code: string; details?: { field: string; rule: string }[] };
    return [answer.status, error.code, error.details?.map((d) => d.field)];
  };

  it('adds a code to the balance once, in the ledger, with the code kept only as a hash', async () => {
    const { batch, codes } = await codesOf({ credits: 500, count: 3, note: 'launch week' });
    expect(codes).toHaveLength(3);
    expect(new Set(codes).size).toBe(3);
    for (const code of codes) expect(code).toMatch(/^SYC(-[A-Z2-9]{5}){4}$/);
    // Kept as hashes: nothing else of a code is stored.
    const stored = await server.services.db
      .selectFrom('codes')
      .selectAll()
      .where('batch_id', '=', batch)
      .execute();
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(Object.keys(row).sort()).toEqual(['batch_id', 'code_hash', 'uses_left']);
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    }

    const acme = await client('acme', 100);
    // Read as typed by hand: lower case, spaces for dashes.
    const redeemed = await call('POST', '/v1/account/redeem', acme, {
      code: codes[0]!.toLowerCase().replace(/-/g, ' '),
    });
    expect([redeemed.status, redeemed.body]).toEqual([200, { credits: 500, balance: 600 }]);
    expect((await call('GET', '/v1/account', acme)).body.balance).toBe(600);
    const ledger = await call('GET', `${BASE}/ledger?token=acme`, admin);
    expect((ledger.body.rows as { kind: string; delta: number; note: string }[])[0]).toMatchObject({
      kind: 'redeem',
      delta: 500,
      note: `code batch ${batch}`,
    });

    // Used up, unknown: the same answer.
    const again = await call('POST', '/v1/account/redeem', acme, { code: codes[0] });
    const unknown = await call('POST', '/v1/account/redeem', acme, { code: 'SYC-AAAAA-BBBBB-CCCCC-DDDDD' });
    expect(refusal(again)).toEqual([400, 'bad_request', ['code']]);
    expect(again.body).toMatchObject({
      error: { message: (unknown.body.error as { message: string }).message },
    });
    expect(refusal(await call('POST', '/v1/account/redeem', acme, {}))).toEqual([
      400,
      'bad_request',
      ['code'],
    ]);

    const listed = await call('GET', `${BASE}/codes?batch=${batch}`, admin);
    expect((listed.body.rows as unknown[])[0]).toMatchObject({
      batch,
      credits: 500,
      count: 3,
      used: 1,
      note: 'launch week',
    });
    // Disabled: what is left is refused.
    expect((await call('DELETE', `${BASE}/codes/${batch}`, admin)).body).toMatchObject({ batch, used: 1 });
    expect(refusal(await call('POST', '/v1/account/redeem', acme, { code: codes[1] }))).toEqual([
      400,
      'bad_request',
      ['code'],
    ]);
    expect((await call('DELETE', `${BASE}/codes/nothing`, admin)).status).toBe(404);
    const audit = await call('GET', `${BASE}/audit`, admin);
    expect((audit.body.rows as { action: string }[]).map((row) => row.action)).toEqual(
      expect.arrayContaining(['codes.create', 'codes.disable']),
    );
  });

  it('counts each use once when many redeem one code at the same moment', async () => {
    const { codes } = await codesOf({ credits: 10, count: 1, uses: 5 });
    const tokens = await Promise.all(Array.from({ length: 12 }, (_, i) => client(`crowd-${i}`)));
    const answers = await Promise.all(
      tokens.map((token) => call('POST', '/v1/account/redeem', token, { code: codes[0] })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(7);
    const balances = await Promise.all(
      tokens.map(async (token) => (await call('GET', '/v1/account', token)).body.balance),
    );
    expect(balances.reduce((sum: number, b) => sum + Number(b), 0)).toBe(50);
  });

  it('refuses an expired code, an unlimited token without spending the use, and bad batches', async () => {
    const { batch, codes } = await codesOf({
      credits: 7,
      count: 1,
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    const unlimited = await client('free', null);
    const refused = await call('POST', '/v1/account/redeem', unlimited, { code: codes[0] });
    expect([refused.status, (refused.body.error as { code: string }).code]).toEqual([409, 'conflict']);
    expect((await call('GET', `${BASE}/codes?batch=${batch}`, admin)).body.rows).toMatchObject([{ used: 0 }]);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const late = await client('late');
    expect(refusal(await call('POST', '/v1/account/redeem', late, { code: codes[0] }))).toEqual([
      400,
      'bad_request',
      ['code'],
    ]);
    for (const [body, field] of [
      [{ credits: 0, count: 1 }, 'credits'],
      [{ credits: 5, count: 0 }, 'count'],
      [{ credits: 5, count: 1, uses: 0 }, 'uses'],
      [{ credits: 5, count: 1, expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
      [{ credits: 5, count: 1, expires_at: 'soon' }, 'expires_at'],
      [{ credits: 5, count: 1, colour: 'red' }, 'colour'],
    ] as const)
      expect(refusal(await call('POST', `${BASE}/codes`, admin, body)), JSON.stringify(body)).toEqual([
        400,
        'bad_request',
        [field],
      ]);
  });

  it('refuses a token its eleventh failure within a minute, and admin tokens always', async () => {
    const guesser = await client('guesser');
    for (let i = 0; i < 10; i += 1)
      expect((await call('POST', '/v1/account/redeem', guesser, { code: `SYC-GUESS-${i}` })).status).toBe(
        400,
      );
    const limited = await call('POST', '/v1/account/redeem', guesser, { code: 'SYC-GUESS-X' });
    expect([limited.status, (limited.body.error as { code: string }).code]).toEqual([
      429,
      'too_many_requests',
    ]);
    expect((await call('POST', '/v1/account/redeem', admin, { code: 'SYC-GUESS-X' })).status).toBe(403);
  });
});
