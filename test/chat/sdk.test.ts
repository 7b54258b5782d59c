/**
 * The official openai SDK, unchanged, against /chatmodel and /moon of the real server, which
 * routes to an OpenAI-compatible upstream on loopback.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import { expectShape } from '../support/expect.js';
import { ChatCompletion, ChatCompletionChunk } from '../../src/contract/chat.js';

let server: TestServer;
let upstream: FakeUpstream;
let token: string;

beforeAll(async () => {
  upstream = await startFakeUpstream('main');
  server = await startServer({
    channels: [
      {
        name: 'main',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: upstream.baseUrl,
        api_key: 'sk-upstream',
        models: ['chatmodel-4*', 'moon-*'],
        model_map: { 'chatmodel-4o': 'gpt-4o' },
      },
    ],
    'routing.backoff_ms': 10,
  });
  token = await server.token();
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

const client = (family: 'chatmodel' | 'moon') =>
  new OpenAI({ baseURL: `${server.url}/${family}`, apiKey: token, maxRetries: 0 });
const user = (content: string) => [{ role: 'user' as const, content }];

describe.each(['chatmodel', 'moon'] as const)('openai SDK on /%s', (family) => {
  const model = family === 'chatmodel' ? 'chatmodel-4o' : 'moon-k2.5';

  it('completes', async () => {
    const completion = await client(family).chat.completions.create({
      model,
      messages: user('hello there switchyard'),
    });
    expectShape(completion, ChatCompletion);
    expect(completion.model).toBe(model);
    expect(completion.choices[0]?.message).toMatchObject({
      role: 'assistant',
      content: 'hello there switchyard',
    });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.completion_tokens).toBe(3);
  });

  it('streams, with usage when asked', async () => {
    const stream = await client(family).chat.completions.create({
      model,
      messages: user('one two three four'),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      expectShape(chunk, ChatCompletionChunk);
      expect(chunk.model).toBe(model);
      chunks.push(chunk);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('one two three four');
    expect(chunks.at(-1)?.usage).toMatchObject({ completion_tokens: 4 });
    expect(chunks.filter((c) => c.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
  });

  it('gives n choices', async () => {
    const completion = await client(family).chat.completions.create({ model, messages: user('a b'), n: 3 });
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('cuts at max_tokens with finish_reason length', async () => {
    const completion = await client(family).chat.completions.create({
      model,
      messages: user('a b c d e f'),
      max_tokens: 2,
    });
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'a b' } });
  });

  it('answers JSON in JSON mode', async () => {
    const completion = await client(family).chat.completions.create({
      model,
      messages: user('json please'),
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ echo: 'json please' });
  });

  it('surfaces errors as the SDK’s classes', async () => {
    const badModel = await client(family)
      .chat.completions.create({ model: 'no-such-model', messages: user('x') })
      .catch((e: unknown) => e);
    expect(badModel).toBeInstanceOf(OpenAI.BadRequestError);
    expect((badModel as Error).message).toContain('model: must be one of');
    const badRequest = await client(family)
      .chat.completions.create({ model, messages: [] })
      .catch((e: unknown) => e);
    expect(badRequest).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('tools on /chatmodel', () => {
  it('round-trips a function call', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'weather',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = user('weather in Lyon');
    const first = await client('chatmodel').chat.completions.create({
      model: 'chatmodel-4o',
      messages,
      tools,
      tool_choice: 'required',
    });
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('weather');
    messages.push(choice?.message as OpenAI.ChatCompletionMessageParam);
    messages.push({ role: 'tool', tool_call_id: call?.id ?? '', content: 'sunny and mild' });
    const second = await client('chatmodel').chat.completions.create({
      model: 'chatmodel-4o',
      messages,
      tools,
    });
    expect(second.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'sunny and mild' },
    });
  });
});

describe('channels', () => {
  it('renames the model on the way up and back, and sends the channel’s key', async () => {
    const before = upstream.received.length;
    const completion = await client('chatmodel').chat.completions.create({
      model: 'chatmodel-4o',
      messages: user('x'),
    });
    const sent = upstream.received[before];
    expect(sent?.body.model).toBe('gpt-4o');
    expect(sent?.authorization).toBe('Bearer sk-upstream');
    expect(completion.model).toBe('chatmodel-4o');
  });

  it('answers 503 busy, naming the model, when no channel serves it', async () => {
    const error = await client('chatmodel')
      .chat.completions.create({ model: 'o3', messages: user('x') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as Error).message).toContain('no chat channel serves o3: list it in channels[].models');
  });

  it('charges the tokens used, per the price table', async () => {
    const { token: record, secret } = await server.services.tokens.create({ name: 'payer', credits: 100 });
    const paying = new OpenAI({ baseURL: `${server.url}/chatmodel`, apiKey: secret, maxRetries: 0 });
    await paying.chat.completions.create({ model: 'chatmodel-4o', messages: user('a b c'), max_tokens: 10 });
    // 3 prompt tokens at 1 per 1000 and 3 completion tokens at 2 per 1000: 1 credit, rounded up.
    expect(await server.services.tokens.balance(record.id)).toBe(99);
  });
});
