import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { chatmodel, moon, ChatCompletion, ChatCompletionChunk } from '../../src/contract/chat.js';
import { checkSchema, validateRequest } from '../../src/contract/validate.js';
import type { Operation } from '../../src/contract/types.js';
import { invalid, valid } from './cases/chat.js';
import { checkCases } from './check-cases.js';

describe('chat contract', () => checkCases([chatmodel, moon], invalid, valid));

const call = {
  id: 'call_1',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
};
const base = { id: 'chatcmpl-1', created: 1_700_000_000, model: 'chatmodel-4o' };
const toolAnswer = {
  ...base,
  object: 'chat.completion',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: null, tool_calls: [call], refusal: null },
      finish_reason: 'tool_calls',
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
};

/** An SDK client whose requests are recorded and answered with `answer`, never sent anywhere. */
function recordingClient(family: string, answer: () => Response) {
  const sent: { path: string; body: unknown }[] = [];
  const client = new OpenAI({
    apiKey: 'sk-test',
    baseURL: `http://switchyard.test/${family}`,
    maxRetries: 0,
    fetch: async (url, init) => {
      sent.push({ path: new URL(String(url)).pathname, body: JSON.parse(String(init?.body)) });
      return answer();
    },
  });
  return { client, sent };
}

function expectAccepted(operation: Operation, sent: { path: string; body: unknown }[]): void {
  for (const { path, body } of sent) {
    expect(path).toBe(operation.path);
    expect(validateRequest(operation, body).violations).toEqual([]);
  }
}

describe('bodies the openai SDK sends', () => {
  it('passes a tool round trip, the answer sent back as history', async () => {
    const json = () => Response.json(toolAnswer);
    const { client, sent } = recordingClient('chatmodel', json);
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.chat.completions.create({ model: 'chatmodel-4o', messages, tools });
    const [choice] = first.choices;
    if (!choice) throw new Error('no choice');
    messages.push(choice.message, { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":18}' });
    await client.chat.completions.create({ model: 'chatmodel-4o', messages, tools, tool_choice: 'auto' });
    expect(sent).toHaveLength(2);
    expectAccepted(chatmodel, sent);
  });

  it('passes a streaming request', async () => {
    const done = () => new Response('data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } });
    const { client, sent } = recordingClient('moon', done);
    const stream = await client.chat.completions.create({
      model: 'moon-k2.5',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) expect(chunk).toBeDefined();
    expect(sent).toHaveLength(1);
    expectAccepted(moon, sent);
  });
});

describe('chat responses', () => {
  it('describes a completion that answers with tool calls', () => {
    expect(checkSchema(ChatCompletion, toolAnswer)).toEqual([]);
  });

  it('describes stream chunks, the last one carrying usage', () => {
    const delta = { ...base, object: 'chat.completion.chunk' };
    const first = {
      ...delta,
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
    };
    const usage = {
      ...delta,
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    expect(checkSchema(ChatCompletionChunk, first)).toEqual([]);
    expect(checkSchema(ChatCompletionChunk, usage)).toEqual([]);
  });
});
