/**
 * What a client chooses as its model (or action) cannot harm the usage reports: a name is kept
 * printable, on one line and cut to 64 characters, so that a 10 KB model name (here on a request
 * refused 400) no longer stops the daily rollup on PostgreSQL, whose key holds the model and
 * whose index rows hold at most 2,704 bytes; rows written before names were bounded are cut again
 * by the rollup; reports read the same before and after it; and a model that a spreadsheet would
 * run as a formula is made inert in the CSV export.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { rollUp } from '../../src/watchers/retention.js';
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

  const read = async (path: string) => {
    const answer = await fetch(`${server.url}/admin/api/v1/${path}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(answer.status).toBe(200);
    return answer;
  };
  const byModel = async () =>
    ((await (await read('usage?token=client&group_by=model')).json()) as { rows: { model: string | null }[] })
      .rows;

  it('makes a model that a spreadsheet would run inert in the CSV export, and leaves figures as numbers', async () => {
    const models = ['=HYPERLINK("http://evil.example/","x")', '+1+1', '@SUM(A1)', '-2+3', '\t=1+2'];
    for (const model of models)
      expect((await server.post('/serp/web', { query: 'q', model }, client)).status).toBe(400);
    const csv = await (await read('usage?token=client&group_by=model&format=csv')).text();
    const cells = csv.split('\r\n').map((line) => line.split(',')[0]);
    expect(cells).toEqual(
      expect.arrayContaining([
        `"'=HYPERLINK(""http://evil.example/""`,
        `"'+1+1"`,
        `"'@SUM(A1)"`,
        `"'-2+3"`,
        `"'=1+2"`,
      ]),
    );
    for (const line of csv.trim().split('\r\n').slice(1)) expect(line).not.toMatch(/(^|,)[=+\-@\t]/);
    expect(csv).toMatch(/,1,0,1,0,/);
  });

  it('keeps the names a client sends printable, on one line and short', async () => {
    const refused = await server.post(
      '/tune/audios',
      { model: 'a\u202eb\r\nc\u0000\u200bd\ud800e', action: `x${'\u0001'.repeat(3)}${'y'.repeat(5000)}` },
      client,
    );
    expect(refused.status).toBe(400);
    const traceId = refused.headers.get('x-trace-id');
    const log = (await (await read('requests?token=client')).json()) as {
      rows: { trace_id: string; model: string }[];
    };
    expect(log.rows.find((r) => r.trace_id === traceId)?.model).toBe('a b c d e');
    const row = await server.services.db
      .selectFrom('usage')
      .select('action')
      .where('trace_id', '=', traceId as string)
      .executeTakeFirstOrThrow();
    expect(row.action).toBe(`x ${'y'.repeat(MODEL_CHARS - 3)}…`);
  });

  it('rolls up usage whatever model a client sent, the ones written before names were bounded too', async () => {
    // Random, so that PostgreSQL cannot compress the index row under its limit.
    const huge = `m${randomBytes(5120).toString('hex')}`;
    const cut = `${huge.slice(0, MODEL_CHARS - 1)}…`;
    const refused = await server.post('/serp/web', { query: 'q', model: huge }, client);
    expect(refused.status).toBe(400);
    const before = await byModel();
    expect(before.find((r) => r.model === cut)).toMatchObject({ requests: 1, failed: 1 });

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
    // Dated ahead, so that every row so far is rolled up: the reports then read the daily rows.
    const days = await rollUp(db, 2, Date.now() + 120_000);
    expect(days).toBeGreaterThan(0);
    const rolled = await db.selectFrom('usage_daily').select(['token_id', 'model']).execute();
    expect(rolled.find((r) => r.token_id === 'legacy')?.model).toBe(huge.slice(0, MODEL_CHARS));
    expect(rolled.map((r) => r.model)).toContain(cut);
    expect(await byModel()).toEqual(before);
    // And the next rollup goes on from there. (Nothing is written after the rollups in this
    // file: its reports would no longer count raw rows from before the marker.)
    expect(await rollUp(db, 2, Date.now() + 10 * 60_000)).toBeGreaterThan(0);
  });
});
