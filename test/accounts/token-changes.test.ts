/**
 * A token revoked by another process (the CLI, another node) is refused at once, about half a
 * second later, on SQLite and on PostgreSQL, by a server that caches tokens for a minute. Where
 * nodes share Redis, a node that revokes or disables a token tells the others through it: a node
 * whose poll of the database is stopped refuses the token all the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens } from '../../src/accounts/tokens.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { BACKENDS, provisionShared, type Provisioned } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let elsewhere: Db;

  beforeAll(async () => {
    server = await startServer({ 'tokens.cache_ms': 60_000 }, { backend });
    // Another process's view of the same database: its own connection, its own token cache.
    elsewhere = await openDatabase(server.config.database.url);
  });
  afterAll(async () => {
    await elsewhere?.destroy();
    await server?.close();
  });

  it('refuses a token soon after its revocation elsewhere, long before its cache time', async () => {
    const { token, secret } = await server.services.tokens.create({ name: `revoked-${backend}` });
    const search = () => server.post('/serp/web', { query: 'still here' }, secret);
    expect((await search()).status).toBe(200);
    expect(await new Tokens(elsewhere).revoke(token.id)).toBe(1);
    const revokedAt = Date.now();
    let status = 200;
    // Polled every 0.5 s, so about that; the bound leaves room for a loaded machine, and is far
    // below the minute the cache would otherwise keep the token.
    while (status === 200 && Date.now() - revokedAt < 5000) {
      status = (await search()).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
  });
});

describe('postgres+redis: a change pushed to the other nodes', () => {
  let shared: Provisioned;
  let writer: TestServer;
  let reader: TestServer;

  beforeAll(async () => {
    shared = await provisionShared();
    const node = { ...shared.overrides, 'tokens.cache_ms': 60_000 };
    [writer, reader] = await Promise.all([startServer(node), startServer(node)]);
    // The database poll stopped: only the message through Redis can make this node forget.
    reader.services.tokens.stopWatching();
  });
  afterAll(async () => {
    await Promise.all([writer?.close(), reader?.close()]);
    await shared?.release();
  });

  async function refusedWithin(ms: number, secret: string): Promise<number> {
    const since = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - since < ms) {
      status = (await reader.post('/serp/web', { query: 'still here' }, secret)).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    return status;
  }

  it('refuses a token revoked or disabled on another node, its cache and poll notwithstanding', async () => {
    const revoked = await writer.services.tokens.create({ name: 'pushed-revoked' });
    const disabled = await writer.services.tokens.create({ name: 'pushed-disabled' });
    for (const { secret } of [revoked, disabled])
      expect((await reader.post('/serp/web', { query: 'cached now' }, secret)).status).toBe(200);

    expect(await writer.services.tokens.revoke(revoked.token.id)).toBe(1);
    expect(await refusedWithin(5000, revoked.secret)).toBe(401);
    expect(await writer.services.tokens.update(disabled.token.id, { disabled: true })).toBe(true);
    expect(await refusedWithin(5000, disabled.secret)).toBe(401);
  });
});
