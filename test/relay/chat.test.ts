/**
 * Chat relayed to an upstream of this same interface: a first Switchyard's only chat channel is
 * a `passthrough` to a second, whose channel is an OpenAI-compatible upstream on loopback. The
 * official SDK, pointed at the first, gets answers and streams on both chat families, each sent
 * to the upstream's endpoint of its family, with the usage it asked for.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import { startServer, type TestServer } from '../support/server.js';

let vendor: FakeUpstream;
let second: TestServer;
let first: TestServer;
let token: string;

beforeAll(async () => {
  vendor = await startFakeUpstream('vendor');
  second = await startServer({
    channels: [
      {
        name: 'vendor',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: vendor.baseUrl,
        models: ['*'],
      },
    ],
  });
  first = await startServer({
    channels: [
      {
        name: 'peer',
        capability: 'chat',
        type: 'passthrough',
        base_url: second.url,
        api_key: await second.token(),
        models: ['*'],
      },
    ],
  });
  token = await first.token();
});
afterAll(async () => {
  await first.close();
  await second.close();
  await vendor.close();
});

/** The operations the upstream recorded for `model` (its usage rows are written in batches). */
async function operationsOf(server: TestServer, model: string): Promise<string[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const rows = await server.services.db
      .selectFrom('usage')
      .select('operation')
      .where('model', '=', model)
      .execute();
    if (rows.length > 0 || Date.now() > until) return rows.map((r) => r.operation);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const client = (family: 'chatmodel' | 'moon') =>
  new OpenAI({ baseURL: `${first.url}/${family}`, apiKey: token, maxRetries: 0 });

describe('chat through a same-interface upstream', () => {
  it('answers each family from the upstream’s endpoint of that family', async () => {
    for (const [family, model] of [
      ['chatmodel', 'chatmodel-4o'],
      ['moon', 'moon-k2.5'],
    ] as const) {
      const completion = await client(family).chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'three small words' }],
      });
      expect(completion.model).toBe(model);
      expect(completion.choices[0]!.message.content).toBe('three small words');
      expect(await operationsOf(second, model)).toEqual([`/${family}/chat/completions`]);
    }
  });

  it('streams, with the usage the client asked for', async () => {
    const stream = await client('chatmodel').chat.completions.create({
      model: 'chatmodel-4o',
      messages: [{ role: 'user', content: 'one two three four' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text.trim()).toBe('one two three four');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });
});
