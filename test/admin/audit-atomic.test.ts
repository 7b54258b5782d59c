/**
 * An admin's change to a token or to the identity registry is never done without its audit
 * record: the change and the record are one transaction. Here the record cannot be written (the
 * audit table is gone), and every change through the admin API fails whole: nothing about the
 * token or the registry changed. On both backends.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';

const BASE = '/admin/api/v1';
const IN_REGISTRY = '11010519491231002X';
const NEWCOMER = '110101199003070038';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let admin: string;
  let client: string;
  let identity: string;

  beforeAll(async () => {
    server = await startServer({}, { backend });
    admin = await server.token({ name: 'ops', role: 'admin' });
    client = await server.token({ name: 'acme', credits: 50 });
    const enrolled = await call('POST', '/identities', { name: '张三丰', id_number: IN_REGISTRY });
    expect(enrolled.status).toBe(201);
    identity = enrolled.body.id as string;
    await sql`drop table audit`.execute(server.services.db);
  });
  afterAll(() => server?.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${BASE}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${admin}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const row = () =>
    server.services.db.selectFrom('tokens').selectAll().where('name', '=', 'acme').executeTakeFirstOrThrow();

  it('leaves the token as it was when its audit record cannot be written', async () => {
    const before = await row();
    expect((await call('POST', '/tokens', { name: 'newcomer', credits: 5 })).status).toBe(500);
    expect((await call('PATCH', '/tokens/acme', { rate_per_second: 3, unlimited: true })).status).toBe(500);
    expect((await call('POST', '/tokens/acme/rotate-secret')).status).toBe(500);
    expect((await call('POST', '/tokens/acme/regenerate')).status).toBe(500);
    expect((await call('DELETE', '/tokens/acme')).status).toBe(500);
    expect((await call('POST', '/tokens/acme/credits', { delta: 10, note: 'top-up' })).status).toBe(500);

    expect(await row()).toEqual(before);
    const names = await server.services.db.selectFrom('tokens').select('name').execute();
    expect(names.map((n) => n.name)).not.toContain('newcomer');
    const ledger = await server.services.db
      .selectFrom('ledger')
      .select(sql<number>`count(*)`.as('n'))
      .where('token_id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(Number(ledger.n)).toBe(1); // the opening balance alone
    // The old secret still works: neither revoked nor regenerated.
    expect((await server.post('/serp/web', { query: 'still here' }, client)).status).not.toBe(401);
  });

  it('leaves the identity registry as it was when its audit record cannot be written', async () => {
    const before = (await call('GET', '/identities')).body;
    expect((await call('POST', '/identities', { name: '李四', id_number: NEWCOMER })).status).toBe(500);
    expect((await call('PATCH', `/identities/${identity}`, { name: '李四' })).status).toBe(500);
    expect((await call('DELETE', `/identities/${identity}`)).status).toBe(500);
    expect((await call('GET', '/identities')).body).toEqual(before);
    expect(before.rows).toEqual([expect.objectContaining({ id: identity, name: '张**' })]);
  });
});
