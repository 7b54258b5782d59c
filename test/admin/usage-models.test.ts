/**
 * What a client chooses as its model cannot harm the usage reports: a 10 KB model name (here on a
 * request refused 400) is kept cut to 64 characters, so that the daily rollup, whose key holds the
 * model, goes on rolling up on PostgreSQL (whose index rows hold at most 2,704 bytes); rows written
 * before names were bounded are cut again by the rollup; and a model that a spreadsheet would run
 * as a formula is made inert in the CSV export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { rollUp } from '../../src/admin/retention.js';
import { MODEL_CHARS } from '../../src/accounts/usage.js';

describe.each(BACKENDS)('%s', (backend) => {
  let server: TestServer;
  let admin: string;
  let client: string;

  beforeAll(async () => {
    server = await startServer({}, { backend });
    admin = await server.token({ name: 'ops', role: 'admin' });
    client = await server.token({ name: 'client' });
  });
  afterAll(() => server?.close());

  const report = async (query: string) => {
    const answer = await fetch(`${server.url}/admin/api/v1/usage?${query}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(answer.status).toBe(200);
    return answer;
  };

  it('makes a model that a spreadsheet would run inert in the CSV export, and leaves figures as numbers', async () => {
    for (const model of ['=HYPERLINK("http://evil.example/","x")', '+1+1', '@SUM(A1)', '-2+3'])
      expect((await server.post('/serp/web', { query: 'q', model }, client)).status).toBe(400);
    const csv = await (await report('token=client&group_by=model&format=csv')).text();
    const cells = csv.split('\r\n').map((line) => line.split(',')[0]);
    expect(cells).toEqual(
      expect.arrayContaining([`"'=HYPERLINK(""http://evil.example/""`, `"'+1+1"`, `"'@SUM(A1)"`, `"'-2+3"`]),
    );
    for (const line of csv.trim().split('\r\n').slice(1)) expect(line).not.toMatch(/(^|,)[=+\-@]/);
    expect(csv).toMatch(/,1,0,1,0,/);
  });

  it('rolls up usage whatever model a client sent, the ones written before names were bounded too', async () => {
    const huge = `m${'x'.repeat(10 * 1024)}`;
    const refused = await server.post('/serp/web', { query: 'q', model: huge }, client);
    expect(refused.status).toBe(400);
    const row = (await (await report('token=client&group_by=model')).json()) as { rows: { model: string }[] };
    expect(row.rows.map((r) => r.model)).toContain(`m${'x'.repeat(MODEL_CHARS - 2)}…`);

    // A row as an older version wrote it, with the whole name.
    const db = server.services.db;
    const old = Date.now() - 3 * 86_400_000;
    await db
      .insertInto('usage')
      .values({
        id: `old-${old}`,
        token_id: 'legacy',
        operation: '/serp/web',
        model: huge,
        action: null,
        credits: 0,
        status: 400,
        latency_ms: 1,
        trace_id: `old-trace-${old}`,
        created_at: old,
      })
      .execute();
    const days = await rollUp(db, 2, Date.now() + 120_000);
    expect(days).toBeGreaterThan(0);
    const rolled = await db.selectFrom('usage_daily').select(['token_id', 'model']).execute();
    expect(rolled.find((r) => r.token_id === 'legacy')?.model).toBe(huge.slice(0, MODEL_CHARS));
    // And the next rollup goes on from there. (The rollups are dated ahead: nothing is written
    // after them in this file, whose reports would no longer count raw rows before them.)
    expect(await rollUp(db, 2, Date.now() + 10 * 60_000)).toBeGreaterThan(0);
  });
});
