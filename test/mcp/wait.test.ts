/**
 * A tool call whose task outlasts `limits.mcp_wait_seconds`: the call answers the task as it
 * stands with its task_id, the task goes on, and get_task finds it finished.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { call, connect, linksOf, textOf } from './support.js';

vi.setConfig({ testTimeout: 60_000 });

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startServer({ 'limits.mcp_wait_seconds': 1 });
  client = await connect(server, await server.token());
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('a task longer than the wait', () => {
  it('answers its task_id, goes on, and get_task finds it finished', async () => {
    const body = {
      model: 'dance-1-0-lite-t2v-250428',
      content: [{ type: 'text', text: 'rain on a window --rs 720p --rt 16:9 --dur 5' }],
    };
    const waited = await call(client, 'dance_video', body);
    expect(waited.isError).toBeFalsy();
    expect(textOf(waited)).toMatch(/did not finish within 1 s and goes on: call get_task/);
    const id = String(waited.structuredContent.id);
    expect(['queued', 'running']).toContain(waited.structuredContent.state);
    expect(textOf(waited)).toContain(id);
    for (let tries = 0; ; tries += 1) {
      const task = await call(client, 'get_task', { task_id: id });
      expect(task.isError, JSON.stringify(task.structuredContent)).toBeFalsy();
      if (task.structuredContent.state === 'succeeded') {
        expect(linksOf(task, 'video/mp4')).toHaveLength(1);
        break;
      }
      expect(tries, JSON.stringify(task.structuredContent)).toBeLessThan(200);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});
