/**
 * A token revoked by another process (the CLI, another node) is refused at once, about half a
 * second later, on SQLite and on PostgreSQL, by a server that caches tokens for a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokens } from '../../src/accounts/tokens.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { BACKENDS } from '../support/backends.js';
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
