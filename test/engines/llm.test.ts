/**
 * The local model engine with the real node-llama-cpp and llama.cpp, on a tiny model written at
 * test time (test/support/tiny-gguf.ts). Its answers are gibberish, so the tests check what does
 * not depend on the weights: shapes, counts, limits, streaming order, reproducibility, and what
 * grammars guarantee (JSON that parses and follows its schema, well-formed tool calls).
 */
import { Ajv } from 'ajv';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletion, ChatCompletionChunk } from '../../src/contract/chat.js';
import { LocalLlm, LocalLlmError } from '../../src/engines/llm/index.js';
import { Grammars } from '../../src/engines/llm/grammars.js';
import { listenToLlamaLogs, llamaRuntime } from '../../src/engines/llm/runtime.js';
import type {
  ChatCompletion as Completion,
  ChatMessage,
  ChatRequest,
  ChatTool,
} from '../../src/providers/chat/types.js';
import { expectShape } from '../support/expect.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';

let dir: string;
let modelPath: string;
let llm: LocalLlm;
/**
 * llama.cpp's log lines while this file runs. The runtime is one per process: another file may
 * have loaded it first, with its own logger, so the lines are heard through a listener.
 */
const logs: string[] = [];
const stopListening = listenToLlamaLogs((level, message) => logs.push(`${level}: ${message}`));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-llm-'));
  modelPath = await writeTinyGguf(dir);
  // One thread: the model is too small to gain from more, and the test machine's cores are shared.
  llm = await LocalLlm.open(modelPath, {
    threads: 1,
    contextSize: 2048,
    // Kept off the test output when this file loads the runtime first.
    logger: () => undefined,
  });
});

afterAll(async () => {
  stopListening();
  await llm?.close();
  await rm(dir, { recursive: true, force: true });
});

const signal = () => AbortSignal.timeout(20_000);
const messages: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Hello there' },
];
const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'tiny-chat', messages, ...extra });

async function collect(request: ChatRequest, abort = signal()) {
  const chunks = [];
  for await (const chunk of llm.stream({ ...request, stream: true }, abort)) chunks.push(chunk);
  return chunks;
}

const ajv = new Ajv({ strict: false });
const matches = (schema: object, value: unknown) => {
  const validate = ajv.compile(schema);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
};

const weather: ChatTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer' },
      },
      required: ['city', 'unit', 'days'],
      additionalProperties: false,
    },
  },
};
const clock: ChatTool = {
  type: 'function',
  function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } } } },
};

describe('LocalLlm: the model', () => {
  it('loads the file once and renders chats with the template it carries', () => {
    expect(llm.modelPath).toBe(modelPath);
    expect(llm.chatWrapperName).toBe('ChatML');
    expect(llm.contextSize).toBeGreaterThanOrEqual(2048);
  });

  it('tokenizes with the model vocabulary, merged pieces and byte fallback included', () => {
    const tokens = llm.tokenize('hello world');
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.length).toBeLessThan('hello world'.length);
    expect(llm.detokenize(tokens)).toBe('hello world');
    expect(llm.detokenize(llm.tokenize('café ☕'))).toBe('café ☕');
    expect(llm.tokenize('<|im_end|>', true)).toHaveLength(1);
    expect(llm.tokenize('<|im_end|>').length).toBeGreaterThan(1);
  });
});

describe('LocalLlm: completions', () => {
  it('answers n choices in the contract shape, for the model that was asked for', async () => {
    const answer = await llm.complete(ask({ n: 2, max_tokens: 4 }), signal());
    expectShape(answer, ChatCompletion);
    expect(answer.model).toBe('tiny-chat');
    expect(answer.choices.map((c) => c.index)).toEqual([0, 1]);
    for (const choice of answer.choices) {
      expect(choice.message.role).toBe('assistant');
      expect(typeof choice.message.content).toBe('string');
    }
    expect(answer.usage?.total_tokens).toBe(
      (answer.usage?.prompt_tokens ?? 0) + (answer.usage?.completion_tokens ?? 0),
    );
  });

  it('counts the prompt with the real tokenizer, template included', async () => {
    const short = await llm.complete(ask({ max_tokens: 1 }), signal());
    const again = await llm.complete(ask({ max_tokens: 1 }), signal());
    const added = 'and a few more words';
    const longer = await llm.complete(
      ask({
        max_tokens: 1,
        messages: [...messages, { role: 'assistant', content: 'Hi' }, { role: 'user', content: added }],
      }),
      signal(),
    );
    const prompt = short.usage?.prompt_tokens ?? 0;
    const textTokens = messages.reduce((sum, m) => sum + llm.tokenize(m.content as string).length, 0);
    expect(prompt).toBeGreaterThan(textTokens);
    expect(again.usage?.prompt_tokens).toBe(prompt);
    expect(longer.usage?.prompt_tokens ?? 0).toBeGreaterThan(prompt + llm.tokenize(added).length);
  });

  it('stops at max_tokens with finish_reason length and counts exactly those tokens', async () => {
    for (const limit of [{ max_tokens: 3 }, { max_completion_tokens: 3 }]) {
      const answer = await llm.complete(ask(limit), signal());
      expect(answer.choices[0]?.finish_reason).toBe('length');
      expect(answer.usage?.completion_tokens).toBe(3);
    }
    const two = await llm.complete(ask({ max_tokens: 3, n: 2 }), signal());
    expect(two.usage?.completion_tokens).toBe(6);
  });

  it('stops at a stop sequence, which is left out of the answer', async () => {
    const free = await llm.complete(ask({ temperature: 0, max_tokens: 8 }), signal());
    const text = free.choices[0]?.message.content ?? '';
    const stop = text.slice(1, 2);
    expect(stop).not.toBe('');
    const stopped = await llm.complete(ask({ temperature: 0, max_tokens: 8, stop: [stop] }), signal());
    expect(stopped.choices[0]?.finish_reason).toBe('stop');
    expect(stopped.choices[0]?.message.content).toBe(text.slice(0, text.indexOf(stop)));
  });

  it('gives the same answer again for the same seed, and others for other seeds', async () => {
    const request = ask({ temperature: 1, seed: 42, max_tokens: 12, n: 2 });
    const first = await llm.complete(request, signal());
    const second = await llm.complete(request, signal());
    const contents = (a: Completion) => a.choices.map((c) => c.message.content);
    expect(contents(second)).toEqual(contents(first));
    const others = await Promise.all(
      [7, 8, 9].map((seed) => llm.complete({ ...request, seed }, signal()).then(contents)),
    );
    expect(new Set([contents(first), ...others].map((c) => JSON.stringify(c))).size).toBeGreaterThan(1);
  });
});

describe('LocalLlm: requests at once', () => {
  it('queues requests for its one sequence and answers each as if alone', async () => {
    const request = ask({ temperature: 1, seed: 5, max_tokens: 6 });
    const alone = await llm.complete(request, signal());
    const together = await Promise.all([1, 2, 3].map(() => llm.complete(request, signal())));
    for (const answer of together)
      expect(answer.choices[0]?.message.content).toBe(alone.choices[0]?.message.content);
  });

  it('serves several requests in one batch with parallel sequences', async () => {
    const wide = await LocalLlm.open(modelPath, { threads: 1, contextSize: 1024, parallel: 2 });
    try {
      const answers = await Promise.all(
        [1, 2, 3, 4].map((seed) => wide.complete(ask({ seed, max_tokens: 5 }), signal())),
      );
      for (const answer of answers) expect(answer.usage?.completion_tokens).toBe(5);
    } finally {
      await wide.close();
    }
  });

  it('lets a request give up while it waits for the sequence', async () => {
    // A long stream holds the only sequence (generation goes on whether or not it is read).
    const holder = llm.stream(ask({ stream: true, max_tokens: 1500 }), signal())[Symbol.asyncIterator]();
    await holder.next();
    const waiting = new AbortController();
    const second = llm.complete(ask({ max_tokens: 2 }), waiting.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    waiting.abort(new Error('tired of waiting'));
    await expect(second).rejects.toThrow('tired of waiting');
    await holder.return?.(undefined);
    // The one that gave up left the line: the sequence goes to the next request, not to it.
    const next = await llm.complete(ask({ max_tokens: 2 }), signal());
    expect(next.usage?.completion_tokens).toBe(2);
  });
});

describe('LocalLlm: streaming', () => {
  it('streams the role first, then content, then the finish reason, then the usage', async () => {
    const chunks = await collect(
      ask({ temperature: 0, max_tokens: 4, stream_options: { include_usage: true } }),
    );
    for (const chunk of chunks) expectShape(chunk, ChatCompletionChunk);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.model === 'tiny-chat')).toBe(true);

    const [first, ...rest] = chunks;
    expect(first?.choices[0]?.delta.role).toBe('assistant');
    const usage = rest.pop();
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage?.completion_tokens).toBe(4);
    const finish = rest.pop();
    expect(finish?.choices[0]?.finish_reason).toBe('length');
    expect(rest.length).toBeGreaterThan(0);
    expect(
      rest.every(
        (c) => c.choices[0]?.finish_reason === null && typeof c.choices[0]?.delta.content === 'string',
      ),
    ).toBe(true);

    const streamed = rest.map((c) => c.choices[0]?.delta.content).join('');
    const whole = await llm.complete(ask({ temperature: 0, max_tokens: 4 }), signal());
    expect(streamed).toBe(whole.choices[0]?.message.content);
  });

  it('streams several choices one after the other, each closed before the next', async () => {
    const chunks = await collect(ask({ n: 2, max_tokens: 3 }));
    const indexes = chunks.flatMap((c) => c.choices.map((choice) => choice.index));
    expect(indexes).toEqual([...indexes].sort());
    const finishes = chunks.flatMap((c) => c.choices.filter((choice) => choice.finish_reason !== null));
    expect(finishes.map((f) => [f.index, f.finish_reason])).toEqual([
      [0, 'length'],
      [1, 'length'],
    ]);
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(6);
  });

  it('stops generating when the reader stops reading', async () => {
    let read = 0;
    for await (const _chunk of llm.stream(ask({ stream: true, max_tokens: 500 }), signal())) {
      read += 1;
      if (read === 3) break;
    }
    // The sequence is free again: the next request is served.
    const next = await llm.complete(ask({ max_tokens: 2 }), signal());
    expect(next.choices[0]?.finish_reason).toBe('length');
  });
});

describe('LocalLlm: structured output', () => {
  it('answers json_object with a JSON object', async () => {
    for (const seed of [1, 2, 3]) {
      const answer = await llm.complete(
        ask({ seed, max_tokens: 300, response_format: { type: 'json_object' } }),
        signal(),
      );
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      const value: unknown = JSON.parse(answer.choices[0]?.message.content ?? '');
      expect(value).toBeTypeOf('object');
      expect(Array.isArray(value)).toBe(false);
    }
  });

  it('answers json_schema with JSON that follows the schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        population: { type: 'integer' },
        kind: { enum: ['town', 'city', 'village'] },
        capital: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        location: {
          type: 'object',
          properties: { lat: { type: 'number' }, lon: { type: 'number' } },
          required: ['lat', 'lon'],
          additionalProperties: false,
        },
        mayor: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['city', 'population', 'kind', 'capital', 'tags', 'location', 'mayor'],
      additionalProperties: false,
    };
    for (const seed of [1, 2, 3]) {
      const answer = await llm.complete(
        ask({
          seed,
          max_tokens: 400,
          response_format: { type: 'json_schema', json_schema: { name: 'town', schema, strict: true } },
        }),
        signal(),
      );
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      matches(schema, JSON.parse(answer.choices[0]?.message.content ?? ''));
    }
  });

  it('writes numbers a schema admits: integers without an exponent, numbers finite', async () => {
    const grammar = await new Grammars(await llamaRuntime()).forSchema(
      { type: 'object', properties: { n: { type: 'integer' }, x: { type: 'number' } } },
      'response_format.json_schema.schema',
    );
    // The whole answer, as sampling ends it (the grammar's closing newlines included).
    const admits = (text: string) =>
      (grammar as unknown as { _testText(text: string): boolean })._testText(`${text}\n\n\n\n`);
    expect(admits('{"n": 12, "x": -1.5e-3}')).toBe(true);
    expect(admits('{"n": 5e-1, "x": 1}')).toBe(false);
    expect(admits('{"n": 5e3, "x": 1}')).toBe(false);
    expect(admits('{"n": 1, "x": 1e999}')).toBe(false);
    expect(admits('{"n": 1, "x": 1e99}')).toBe(true);
  });

  it('refuses a schema a grammar cannot enforce, naming the member', async () => {
    const schema = { allOf: [{ type: 'object' }, { required: ['a'] }] };
    const error = await llm
      .complete(
        ask({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } }),
        signal(),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalLlmError);
    expect((error as LocalLlmError).requestError).toBe(true);
    expect((error as LocalLlmError).message).toMatch(/^response_format\.json_schema\.schema\.allOf/);
  });
});

describe('LocalLlm: tool calls', () => {
  it('calls the function tool_choice names, with arguments that follow its parameters', async () => {
    const answer = await llm.complete(
      ask({
        tools: [weather, clock],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        max_tokens: 300,
      }),
      signal(),
    );
    expectShape(answer, ChatCompletion);
    const choice = answer.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const [call] = choice?.message.tool_calls ?? [];
    expect(call?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(call?.function.name).toBe('get_weather');
    matches(weather.function.parameters as object, JSON.parse(call?.function.arguments ?? ''));
  });

  it('calls one of the declared functions when a call is required', async () => {
    const tools = [weather, clock];
    for (const seed of [1, 2, 3]) {
      const answer = await llm.complete(
        ask({ seed, tools, tool_choice: 'required', max_tokens: 300 }),
        signal(),
      );
      const [call] = answer.choices[0]?.message.tool_calls ?? [];
      const tool = tools.find((t) => t.function.name === call?.function.name);
      expect(tool).toBeDefined();
      matches(tool?.function.parameters as object, JSON.parse(call?.function.arguments ?? ''));
    }
  });

  it('streams a tool call as one delta before the finish reason', async () => {
    const chunks = await collect(ask({ tools: [weather], tool_choice: 'required', max_tokens: 300 }));
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    const calls = deltas.flatMap((d) => d.tool_calls ?? []);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.function?.name).toBe('get_weather');
    JSON.parse(calls[0]?.function?.arguments ?? '');
    expect(deltas.some((d) => typeof d.content === 'string' && d.content !== '')).toBe(false);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('takes tool results back into the conversation', async () => {
    const call = {
      id: 'call_1',
      type: 'function' as const,
      function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
    };
    const history: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperature": 21, "sky": "clear"}' },
    ];
    const withResult = await llm.complete(
      ask({ messages: history, tools: [weather], max_tokens: 3 }),
      signal(),
    );
    expect(withResult.choices[0]?.finish_reason).toBe('length');
    expect(typeof withResult.choices[0]?.message.content).toBe('string');
    const without = await llm.complete(ask({ tools: [weather], max_tokens: 3 }), signal());
    expect(withResult.usage?.prompt_tokens ?? 0).toBeGreaterThan((without.usage?.prompt_tokens ?? 0) + 20);

    const orphan = await llm
      .complete(
        ask({ messages: [...messages, { role: 'tool', tool_call_id: 'nope', content: '1' }] }),
        signal(),
      )
      .catch((e: unknown) => e);
    expect((orphan as LocalLlmError).code).toBe('invalid_request');
  });
});

describe('LocalLlm: refusals and failures', () => {
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (e: unknown) => (e instanceof LocalLlmError ? e.code : String(e)),
    );

  it('says clearly when the file is missing, is not GGUF, or is corrupt', async () => {
    const missing = await LocalLlm.open(join(dir, 'missing.gguf')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(LocalLlmError);
    expect((missing as LocalLlmError).code).toBe('model_not_found');
    expect((missing as Error).message).toContain('no such file');

    const text = join(dir, 'text.gguf');
    await writeFile(text, 'not a model');
    const notGguf = await LocalLlm.open(text).catch((e: unknown) => e);
    expect((notGguf as LocalLlmError).code).toBe('model_invalid');
    expect((notGguf as Error).message).toContain('not a GGUF file');

    const truncated = join(dir, 'truncated.gguf');
    const bytes = await readFile(modelPath);
    await writeFile(truncated, bytes.subarray(0, bytes.length >> 1));
    const corrupt = await LocalLlm.open(truncated, { threads: 1 }).catch((e: unknown) => e);
    expect((corrupt as LocalLlmError).code).toBe('model_invalid');
    expect((corrupt as Error).message).toMatch(/corrupted or incomplete|not within the file bounds/);
    expect(logs.some((line) => line.startsWith('error: ') && line.includes('file bounds'))).toBe(true);
  });

  it('refuses what it cannot do as the request’s fault', async () => {
    const image: ChatMessage = {
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
    };
    expect(await codeOf(llm.complete(ask({ messages: [image] }), signal()))).toBe('unsupported');
    expect(await codeOf(llm.complete(ask({ logprobs: true }), signal()))).toBe('unsupported');
    expect(await codeOf(llm.complete(ask({ logit_bias: { '99999': 5 } }), signal()))).toBe('invalid_request');
    const long = 'word '.repeat(3000);
    expect(await codeOf(llm.complete(ask({ messages: [{ role: 'user', content: long }] }), signal()))).toBe(
      'prompt_too_long',
    );
  });

  it('applies logit_bias to the model tokens', async () => {
    const quote = llm.tokenize('"').at(-1);
    const brace = llm.tokenize('}').at(-1);
    const biased = await llm.complete(
      ask({ temperature: 0, max_tokens: 5, logit_bias: { [String(quote)]: -100, [String(brace)]: -100 } }),
      signal(),
    );
    expect(biased.choices[0]?.message.content).not.toMatch(/["}]/);
  });

  it('gives up when the request is abandoned', async () => {
    const gone = new AbortController();
    gone.abort(new Error('client left'));
    await expect(llm.complete(ask(), gone.signal)).rejects.toThrow('client left');
  });
});
