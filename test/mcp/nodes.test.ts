/**
 * `/mcp` behind two API nodes that share PostgreSQL and Redis: one client's requests go to the
 * nodes in turn (initialization on one, the rest anywhere), and listing and calls — a task
 * submitted on one node, run by either's workers, watched through Redis — answer as on one node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { provisionShared, type Provisioned } from '../support/backends.js';
import { startServer, type TestServer } from '../support/server.js';
import { decodeWithJsqr } from '../support/qr-decoders.js';
import { call } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let shared: Provisioned;
let nodes: TestServer[];
const blobs = mkdtempSync(join(tmpdir(), 'sy-mcp-blobs-'));

beforeAll(async () => {
  shared = await provisionShared();
  // One blob store for both, as a deployment shares its bucket (deployment.md).
  const overrides = { ...shared.overrides, 'blobs.dir': blobs };
  nodes = [await startServer(overrides), await startServer(overrides)];
});
afterAll(async () => {
  for (const node of nodes ?? []) await node.close();
  await shared?.release();
  rmSync(blobs, { recursive: true, force: true });
});

describe('/mcp on two nodes', () => {
  it('serves one client whose requests go to either node', async () => {
    const secret = await nodes[0]!.token({ operations: ['/qrart/tasks', '/serp/web'] });
    const seen: string[] = [];
    let turn = 0;
    // A load balancer without affinity: every request to the next node.
    const roundRobin: typeof fetch = (url, init) => {
      const node = nodes[turn++ % 2]!;
      seen.push(node.url);
      return fetch(new URL(new URL(String(url)).pathname, node.url), init);
    };
    const client = new Client({ name: 'switchyard-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${nodes[0]!.url}/mcp`), {
        fetch: roundRobin,
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    );
    for (let i = 0; i < 2; i += 1) {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_task', 'qr_art', 'web_search']);
    }
    const qr = await call(client, 'qr_art', { content: 'two nodes', seed: 5 });
    expect(qr.isError, JSON.stringify(qr.structuredContent)).toBeFalsy();
    const image = qr.content.find((c) => c.type === 'image') as { data: string };
    expect(decodeWithJsqr(Buffer.from(image.data, 'base64'))).toBe('two nodes');
    const task = await call(client, 'get_task', { task_id: String(qr.structuredContent.id) });
    expect(task.structuredContent).toMatchObject({ state: 'succeeded' });
    expect(new Set(seen).size).toBe(2);
    await client.close();
  });
});
