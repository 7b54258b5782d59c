import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { ORIGIN_PATHS } from '../../src/compat/origin.js';
import { OPERATIONS } from '../../src/contract/table.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('health, metrics and API documents', () => {
  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('counts requests per operation and status in /metrics', async () => {
    const token = await server.token();
    await server.post('/tune/tasks', { action: 'retrieve_batch' }, token);
    await server.post('/serp/web', { query: 'a' });
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/switchyard_http_requests_total\{operation="\/tune\/tasks",status="200"\} 1/);
    expect(text).toMatch(/switchyard_http_requests_total\{operation="\/serp\/web",status="401"\} 1/);
    expect(text).toMatch(
      /switchyard_http_request_duration_seconds_bucket\{le="0.1",operation="\/tune\/tasks",status="200"\}/,
    );
    expect(text).toContain('switchyard_process_cpu_seconds_total');
  });

  it('publishes an OpenAPI 3.1 document with every operation, its schema and its errors', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<
        string,
        {
          post: {
            requestBody: { content: Record<string, { schema: { properties: object } }> };
            responses: Record<string, unknown>;
          };
        }
      >;
      components: { securitySchemes: object };
    };
    expect(doc.openapi).toBe('3.1.0');
    // The operations, and besides them only the admin API, the client's account and pricing, model
    // lists and the origin's paths.
    const operations = OPERATIONS.map((o) => o.path);
    const others = Object.keys(doc.paths).filter((path) => !operations.includes(path));
    expect(operations.every((path) => path in doc.paths)).toBe(true);
    expect(
      others.filter(
        (path) =>
          !/^\/admin\/api\/v1\/|^\/v1\/account|^\/v1\/pricing$|^\/\w+\/models$/.test(path) &&
          !(path in ORIGIN_PATHS),
      ),
    ).toEqual([]);
    expect(Object.keys(ORIGIN_PATHS).every((path) => path in doc.paths)).toBe(true);
    for (const item of operations.map((path) => doc.paths[path]!)) {
      expect(item.post.requestBody.content['application/json']?.schema.properties).toBeDefined();
      expect(Object.keys(item.post.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '404', '406', '413', '415', '429', '500', '503']),
      );
    }
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
    expect(JSON.stringify(doc.paths['/clip/videos'])).toContain('"maxLength":200');
  });

  it('serves interactive docs from local files', async () => {
    const response = await fetch(`${server.url}/docs/`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('swagger');
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg)/);
  });
});
