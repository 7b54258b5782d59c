/**
 * A tool call whose task outlasts `limits.mcp_wait_seconds`: the call answers the task as it
 * stands with its task_id, the task goes on, and get_task finds it finished.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { canvasOf } from '../../src/engines/canvas.js';
import { encodePng } from '../../src/engines/image-codec.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, connect, linksOf, textOf } from './support.js';

vi.setConfig({ testTimeout: 60_000 });

/** How long the first frame's server holds its answer: twice the wait, whatever the machine's speed. */
const HOLD_MS = 2_000;

let server: TestServer;
let client: Client;
/** Serves the video's first frame, after `HOLD_MS`. */
let slow: Server;
let frameUrl: string;

beforeAll(async () => {
  const png = encodePng(canvasOf(64, 64));
  slow = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png), HOLD_MS);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  frameUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/first.png`;
  server = await startServer({ 'limits.mcp_wait_seconds': 1, 'outbound.allow_cidrs': ['127.0.0.1/32'] });
  client = await connect(server, await server.token());
});
afterAll(async () => {
  await client.close();
  await server.close();
  slow.close();
});

describe('a task longer than the wait', () => {
  it('answers its task_id, goes on, and get_task finds it finished', async () => {
    // The task outlasts the wait while it fetches its first frame, not by rendering for long: the
    // smallest video dance makes (480×480, 29 frames).
    const body = {
      model: 'dance-1-0-lite-i2v-250428',
      content: [
        { type: 'text', text: 'rain on a window --rs 480p --rt 1:1' },
        { type: 'image_url', image_url: { url: frameUrl }, role: 'first_frame' },
      ],
      frames: 29,
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
