/**
 * The official OpenAI SDK against the real server: until a chat engine or channel is configured
 * it must still get the service's errors in a shape it understands (status, code, message).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.token();
});
afterAll(() => server.close());

const client = (family: string, apiKey = token) =>
  new OpenAI({ baseURL: `${server.url}/${family}`, apiKey, maxRetries: 0 });

async function failure(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('official openai SDK', () => {
  it('gets 400 with the field named for a broken rule', async () => {
    const error = await failure(
      client('chatmodel').chat.completions.create({
        model: 'chatmodel-4o',
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 3,
      }),
    );
    expect(error.status).toBe(400);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toContain('temperature: must be at most 2');
    expect(error.headers?.get('x-trace-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gets 401 for a bad key and 503 busy when no engine serves chat', async () => {
    const unauthorized = await failure(
      client('moon', 'sy_wrong').chat.completions.create({
        model: 'moon-k2.5',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    const busy = await failure(
      client('moon').chat.completions.create({
        model: 'moon-k2.5',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(busy.status).toBe(503);
    expect((busy.error as { code?: string }).code).toBe('busy');
  });

  it('is refused tools on /moon, by name', async () => {
    const error = await failure(
      client('moon').chat.completions.create({
        model: 'moon-k2.5',
        messages: [{ role: 'user', content: 'weather?' }],
        tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('tools: is only available on /chatmodel');
  });
});
