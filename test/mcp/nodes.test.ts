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

/** Which node each JSON-RPC method went to, in order. */
type Route = { method: string; node: number };

/** A client behind a load balancer without affinity: every request to the next node. */
async function roundRobinClient(secret: string, routes: Route[]): Promise<Client> {
  let turn = 0;
  const roundRobin: typeof fetch = (url, init) => {
    const node = turn++ % 2;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    routes.push({ method: body.method ?? String(init?.method), node });
    return fetch(new URL(new URL(String(url)).pathname, nodes[node]!.url), init);
  };
  const client = new Client({ name: 'switchyard-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${nodes[0]!.url}/mcp`), {
      fetch: roundRobin,
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  return client;
}

describe('/mcp on two nodes', () => {
  it('serves one client whose requests go to either node', async () => {
    const secret = await nodes[0]!.token({ operations: ['/qrart/tasks', '/serp/web'] });
    const routes: Route[] = [];
    const client = await roundRobinClient(secret, routes);
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
    expect(new Set(routes.filter((r) => r.method === 'tools/list').map((r) => r.node))).toEqual(
      new Set([0, 1]),
    );
    await client.close();
  });

  it('a cancellation that reaches the other node cancels the task and refunds it', async () => {
    const secret = await nodes[0]!.token({ name: 'mcp-nodes-cancel', credits: 50 });
    const routes: Route[] = [];
    const client = await roundRobinClient(secret, routes);
    const abort = new AbortController();
    const running = call(
      client,
      'clip_video',
      { action: 'text2video', prompt: 'clouds over a long ridge' },
      { signal: abort.signal, onprogress: (step) => step.progress > 0 && abort.abort() },
    );
    await expect(running).rejects.toThrow(/abort/i);
    const until = Date.now() + 10_000;
    const token = (await nodes[1]!.services.tokens.list()).find((t) => t.name === 'mcp-nodes-cancel')!;
    let balance;
    do {
      await new Promise((r) => setTimeout(r, 50));
      balance = await nodes[1]!.services.tokens.balance(token.id);
    } while (balance !== 50 && Date.now() < until);
    expect(balance).toBe(50);
    const { rows } = await nodes[1]!.services.admin.tasks.list({ limit: 1, tokenId: token.id });
    expect(rows[0]).toMatchObject({ state: 'failed', error: { code: 'cancelled' } });
    const [submitted] = routes.filter((r) => r.method === 'tools/call');
    const [cancelled] = routes.filter((r) => r.method === 'notifications/cancelled');
    expect(cancelled!.node).not.toBe(submitted!.node);
    await client.close();
  });
});
