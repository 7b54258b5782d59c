import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, request, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { startServer, type Answer, type TestServer } from '../support/server.js';
import { expectError, fieldsOf } from '../support/expect.js';
import { Providers } from '../../src/providers/index.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ 'limits.body_bytes': 4096 });
  token = await server.token();
});
afterAll(() => server.close());

/** The answer to a request sent with node:http, for what fetch will not send as given. */
function rawAnswer(sent: ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    sent.on('error', reject).on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: new Headers(response.headers as Record<string, string>),
          body: JSON.parse(text) as Record<string, unknown>,
          text,
        }),
      );
    });
  });
}

describe('error statuses', () => {
  it('404 no_api for an unknown path, whatever the method', async () => {
    expectError(await server.post('/nowhere', {}, token), 404, 'no_api');
    const get = await fetch(`${server.url}/serp/webs`);
    expect(get.status).toBe(404);
    expect(((await get.json()) as { error: { code: string } }).error.code).toBe('no_api');
  });

  it('405 with Allow: POST for another method on an operation', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(`${server.url}/serp/web`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
    }
  });

  it('406 for an accept value the operation does not answer with', async () => {
    const answer = await server.post('/serp/web', { query: 'a' }, token, { accept: 'application/x-ndjson' });
    expectError(answer, 406, 'not_acceptable');
    expect(answer.body.error).toMatchObject({ message: expect.stringContaining('accept') });
    expectError(
      await server.post('/serp/web', { query: 'a' }, token, { accept: 'text/html' }),
      406,
      'not_acceptable',
    );
  });

  it('accepts ndjson where the spec allows it, and wildcards anywhere', async () => {
    // The stream's status is all this checks: the video it would wait for is not rendered.
    const ndjson = await fetch(`${server.url}/maxi/videos`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/x-ndjson',
      },
      body: JSON.stringify({ model: 'maxi-t2v', action: 'generate', prompt: 'a' }),
    });
    await ndjson.body?.cancel();
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const wildcard = await server.post('/serp/web', { query: 'a' }, token, {
      accept: 'text/html;q=0.9, */*;q=0.1',
    });
    expect(wildcard.status).not.toBe(406);
  });

  it('413 for a body over the limit', async () => {
    expectError(await server.post('/serp/web', { query: 'q'.repeat(5000) }, token), 413, 'payload_too_large');
  });

  it("413 read by Node's fetch while it is still sending the body, declared or streamed", async () => {
    const send = (body: string | ReadableStream<Uint8Array>, streamed: boolean) =>
      fetch(`${server.url}/serp/web`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        ...(streamed ? { duplex: 'half' } : {}),
      });
    // Chunks sent a few milliseconds apart: the 413 is decided on the first one, while the client
    // still has the rest to send. A server that closed then reset the client mid-write (EPIPE).
    const slowly = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"query": "'));
        for (let i = 0; i < 40; i++) {
          controller.enqueue(new Uint8Array(16 * 1024).fill(0x71));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    for (const response of [
      await send(slowly, true),
      await send(JSON.stringify({ query: 'q'.repeat(12 * 1024 * 1024) }), false),
    ]) {
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    }
  });

  it('413 after the rest of a declared body is read, so that a client sending it slowly is not reset', async () => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const chunk = 'q'.repeat(64 * 1024);
    const chunks = 8;
    socket.write(
      `POST /serp/web HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${chunk.length * chunks}\r\n\r\n`,
    );
    // The 413 is decided on the headers; the body then comes a piece at a time, as from a slow
    // link. A server that closed on deciding reset this client at its next piece.
    for (let i = 0; i < chunks; i++) {
      await new Promise<void>((resolve, reject) =>
        socket.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain('"code":"payload_too_large"');
  });

  it('415 for a body that is not JSON', async () => {
    expectError(
      await server.post('/serp/web', 'query=a', token, { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await server.post('/serp/web', 'query=a', token, {
        'content-type': 'application/x-www-form-urlencoded',
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('400 for malformed JSON, naming the body and what the parser found', async () => {
    const answer = await server.post('/serp/web', '{"query": ', token);
    expectError(answer, 400, 'bad_request');
    expect(fieldsOf(answer)).toEqual(['body']);
    expect((answer.body.error as { message: string }).message).toMatch(/^body: must be valid JSON \(.+\)$/);
    const empty = await server.post('/serp/web', '', token);
    expectError(empty, 400, 'bad_request');
    expect(fieldsOf(empty)).toEqual(['body']);
  });

  it('400 for a number beyond what a JavaScript number holds exactly, naming the field', async () => {
    const cases: [string, string, string][] = [
      ['/tune/tasks', '{"action":"retrieve_batch","offset":9223372036854775807}', 'offset'],
      ['/clip/tasks', '{"action":"retrieve_batch","created_at_min":1e400}', 'created_at_min'],
      [
        '/chatmodel/chat/completions',
        '{"model":"chatmodel-4o","messages":[{"role":"user","content":"hi"}],"max_tokens":1e308}',
        'max_tokens',
      ],
    ];
    for (const [path, body, field] of cases) {
      const answer = await server.post(path, body, token);
      expectError(answer, 400, 'bad_request');
      expect(fieldsOf(answer), body).toEqual([field]);
      expect((answer.body.error as { message: string }).message).toMatch(/must be at most 9007199254740991/);
    }
  });

  it('lists the first hundred violations of a body that breaks rules by the hundred', async () => {
    const body = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`u${i}`, 0]));
    const answer = await server.post('/serp/web', { query: 'a', ...body }, token);
    expectError(answer, 400, 'bad_request');
    expect(fieldsOf(answer)).toHaveLength(100);
    expect((answer.body.error as { message: string }).message).toMatch(/; and 300 more$/);
  });

  it('400 for JSON that is not an object', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const answer = await server.post('/serp/web', body, token);
      expectError(answer, 400, 'bad_request');
      expect(fieldsOf(answer)).toEqual(['body']);
    }
  });

  it('400 lists every violation, not only the first', async () => {
    const answer = await server.post('/serp/web', { type: 'x', page: 0, qeury: 'a' }, token);
    expectError(answer, 400, 'bad_request');
    expect(fieldsOf(answer).sort()).toEqual(['page', 'qeury', 'query', 'type']);
    const message = (answer.body.error as { message: string }).message;
    for (const field of ['page', 'qeury', 'query', 'type']) expect(message).toContain(`${field}:`);
  });

  it('rejects prototype pollution attempts as bad input, naming the member', async () => {
    const cases: [string, string[]][] = [
      ['{"query":"a","__proto__":{"x":1}}', ['__proto__']],
      ['{"query":"a","\\u005f_proto__":{"x":1}}', ['__proto__']],
      ['{"query":"a","location":{"constructor":{"prototype":{"x":1}}}}', ['location.constructor']],
    ];
    for (const [body, fields] of cases) {
      const answer = await server.post('/serp/web', body, token);
      expectError(answer, 400, 'bad_request');
      expect(fieldsOf(answer), body).toEqual(fields);
      expect((answer.body.error as { message: string }).message).toContain('would replace the prototype');
    }
    // The words alone are fine: a query about constructors is a query.
    const words = await server.post('/serp/web', '{"query":"constructor __proto__ \\u00e9"}', token);
    expect(fieldsOf(words)).not.toContain('query');
    expect(words.status).not.toBe(400);
  });

  it('503 busy, saying why, for an operation that no engine or channel serves', async () => {
    const chat = { model: 'chatmodel-4o', messages: [{ role: 'user', content: 'hi' }] };
    const answer = await server.post('/chatmodel/chat/completions', chat, token);
    expectError(answer, 503, 'busy');
    expect((answer.body.error as { message: string }).message).toMatch(
      /no engine or channel serves \/chatmodel\/chat\/completions/,
    );
  });

  it('500 api_error without leaking the fault', async () => {
    const saved = server.services.providers;
    server.services.providers = new Providers({
      serp: {
        handle: async () => {
          throw new Error('ENOENT: /var/secret/path/index.db at Object.open (internal.js:1:1)');
        },
      },
    });
    try {
      const answer = await server.post('/serp/web', { query: 'a' }, token);
      expectError(answer, 500, 'api_error');
      expect(answer.text).not.toMatch(/secret|ENOENT|internal\.js/);
      expect((answer.body.error as { message: string }).message).toContain(answer.body.trace_id as string);
    } finally {
      server.services.providers = saved;
    }
  });

  it('400 for two Authorization headers, which Node would have cut to the first', async () => {
    const other = await server.token();
    // Given as a list, the two are sent as two; a host is then the caller's to send.
    const headers = ['host', new URL(server.url).host, 'content-type', 'application/json'];
    headers.push('authorization', `Bearer ${token}`, 'Authorization', `Bearer ${other}`);
    const answer = await rawAnswer(
      request(`${server.url}/serp/web`, { method: 'POST', headers }).end('{"query":"a"}'),
    );
    expectError(answer, 400, 'bad_request');
    expect(fieldsOf(answer)).toEqual(['authorization']);
  });

  it('400 in the one error body for a path the router cannot read', async () => {
    for (const path of ['/serp/%E0%A4%A', `/admin/api/v1/tasks/${'a'.repeat(5000)}`]) {
      const answer = await rawAnswer(get(`${server.url}${path}`));
      expectError(answer, 400, 'bad_request');
      expect(fieldsOf(answer), path.slice(0, 40)).toEqual(['path']);
    }
  });

  it('x-trace-id on every response, a fresh time-ordered UUID (version 7) each time', async () => {
    const seen = new Set<string>();
    for (const path of ['/healthz', '/openapi.json', '/nowhere', '/files/none.png']) {
      const response = await fetch(`${server.url}${path}`);
      const id = response.headers.get('x-trace-id') ?? '';
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(4);
  });
});
