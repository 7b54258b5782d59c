/**
 * The operator's view of a task's callback: the URL a client sent carries its own credentials in
 * its query (credentials in the authority are refused at submission); the admin API shows it
 * exactly as the client's own view does, secret values replaced, in the list and in the task.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pollTask } from '../support/poll.js';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';

const BASE = '/admin/api/v1';
const TOKEN = 'hook-token-9c2a';
const SIGNATURE = 'hook-sig-77d0';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer({ 'outbound.allow_private': true }, { providers: testProviders() });
  admin = (await server.services.tokens.create({ name: 'ops', role: 'admin' })).secret;
});
afterAll(async () => {
  await server?.close();
});

async function adminGet(path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${BASE}${path}`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

it("shows a task's callback URL as the client's own view does, without its credentials", async () => {
  const client = await server.token({ name: 'hooked' });
  // Port 9 (discard) on loopback: where the callback goes does not matter here, only how it is shown.
  const callback = `http://127.0.0.1:9/done?token=${TOKEN}&x=1&signature=${SIGNATURE}`;
  const submitted = await server.post(
    '/clip/videos',
    { action: 'text2video', prompt: 'sleep=1', callback_url: callback },
    client,
  );
  const id = submitted.body.task_id as string;
  expect(submitted.status, submitted.text).toBe(200);
  const own = await pollTask(server, 'clip', id, client);
  const ownUrl = (own.callback as { url: string }).url;
  expect(ownUrl).toBe('http://127.0.0.1:9/done?token=redacted&x=1&signature=redacted');

  const listed = (await adminGet(`/tasks?token=hooked`)).rows as { id: string; callback: { url: string } }[];
  const one = await adminGet(`/tasks/${id}`);
  for (const shown of [
    listed.find((row) => row.id === id)?.callback.url,
    (one.callback as { url: string }).url,
  ]) {
    expect(shown).toBe(ownUrl);
  }
  const text = JSON.stringify([listed, one]);
  for (const secret of [TOKEN, SIGNATURE]) expect(text).not.toContain(secret);
});
