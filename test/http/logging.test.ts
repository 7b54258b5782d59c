import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  server = await startServer({ 'log.level': 'info' }, { logStream: sink });
});
afterAll(() => server.close());

describe('logs', () => {
  it('one structured line per request with its trace id, and no token or body', async () => {
    const token = await server.token();
    const answer = await server.post('/serp/web', { query: 'my-private-query-4711' }, token);
    const bad = await server.post('/serp/web', { query: 'x' }, 'sy_leaked-looking-token-0815');
    await new Promise((r) => setTimeout(r, 50));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = entries.filter((e) => e.trace_id === answer.headers.get('x-trace-id'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ operation: '/serp/web', status: 200, msg: 'answered' });
    expect(entries.some((e) => e.trace_id === bad.headers.get('x-trace-id') && e.status === 401)).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain('sy_leaked');
    expect(all).not.toContain('my-private-query-4711');
    expect(all.toLowerCase()).not.toContain('authorization');
  });
});
