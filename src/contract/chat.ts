/**
 * The chat completion endpoints, `/chatmodel/chat/completions` and `/moon/chat/completions`.
 * Both speak OpenAI's chat-completions interface so that the official SDKs work unchanged; a
 * family differs only in its models and in whether it offers tool calling.
 */
import { Type, Closed, StringEnum, Nullable } from './schema.js';
import { allowedOnlyWhen, isRecord, mutuallyExclusive, requiredWhen } from './rules.js';
import { Message, ToolCall, messageRules } from './chat-messages.js';
import { ResponseFormat, responseFormatRules, toolMembers, toolRules } from './chat-tools.js';
import type { Operation, Rule } from './types.js';

export interface ChatFamily {
  /** The first path segment: `/{name}/chat/completions`. */
  name: string;
  summary: string;
  models: readonly string[];
  /** Tool calling: `tools`, tool messages and the deprecated `functions`. */
  tools: boolean;
}

const CHATMODEL: ChatFamily = {
  name: 'chatmodel',
  summary: 'Chat completion, chatmodel family (with tool calling)',
  tools: true,
  models: [
    ...['chatmodel-5.4', 'chatmodel-5.4-pro', 'chatmodel-5.2', 'chatmodel-5.1', 'chatmodel-5.1-all'],
    ...['chatmodel-5', 'chatmodel-5-mini', 'chatmodel-5-nano', 'chatmodel-4', 'chatmodel-4.1'],
    ...['chatmodel-4.1-mini', 'chatmodel-4.1-nano', 'chatmodel-4o', 'chatmodel-4o-2024-05-13'],
    ...['chatmodel-4o-all', 'chatmodel-4o-image', 'chatmodel-4o-mini', 'chatmodel-35-turbo-16k'],
    ...['o1', 'o1-mini', 'o1-pro', 'o3', 'o3-mini', 'o3-pro', 'o4-mini'],
  ],
};

const MOON: ChatFamily = {
  name: 'moon',
  summary: 'Chat completion, moon family',
  tools: false,
  models: [
    ...['moon-k2-thinking-turbo', 'moon-k2.5', 'moon-k2-thinking', 'moon-k2-instruct-0905'],
    ...['moon-k2-0905-preview', 'moon-k2-turbo-preview', 'moon-k2-0711-preview'],
  ],
};

/** The chat families, each its own `/{name}/chat/completions`. */
export const CHAT_FAMILIES: readonly ChatFamily[] = [CHATMODEL, MOON];

// Defaults are stated in descriptions, not as schema `default`s: the validator would write them
// into the body, and a body passed on upstream must stay as the client sent it.
const maybe = {
  integer: (minimum: number, maximum: number | undefined, description: string) =>
    Type.Optional(
      Nullable(Type.Integer({ minimum, ...(maximum === undefined ? {} : { maximum }), description })),
    ),
  number: (minimum: number, maximum: number, description: string) =>
    Type.Optional(Nullable(Type.Number({ minimum, maximum, description }))),
  boolean: (description: string) => Type.Optional(Nullable(Type.Boolean({ description }))),
  string: (description: string) => Type.Optional(Nullable(Type.String({ description }))),
  oneOf: <const T extends readonly string[]>(values: T, description: string) =>
    Type.Optional(Nullable(StringEnum(values, { description }))),
};

const MAX_STOP = 4;
/** Bounded so that a body cannot carry an unbounded map; a real bias list is a handful of tokens. */
const MAX_LOGIT_BIAS = 300;

const sampling = {
  n: maybe.integer(1, 128, 'Choices to generate; default 1'),
  stream: maybe.boolean('Answer as text/event-stream deltas ending with [DONE]; default false'),
  stream_options: Type.Optional(
    Nullable(
      Closed({
        include_usage: Type.Optional(Type.Boolean({ description: 'Add a final chunk with usage' })),
        include_obfuscation: Type.Optional(
          Type.Boolean({ description: 'Pad chunks against length analysis' }),
        ),
      }),
    ),
  ),
  max_tokens: maybe.integer(1, undefined, 'Most tokens to generate'),
  max_completion_tokens: maybe.integer(1, undefined, 'Most tokens to generate, reasoning included'),
  temperature: maybe.number(0, 2, 'Sampling temperature; default 1'),
  top_p: maybe.number(0, 1, 'Nucleus sampling mass; default 1'),
  stop: Type.Optional(
    Type.Unsafe<string | string[] | null>({
      type: ['string', 'array', 'null'],
      items: { type: 'string' },
      maxItems: MAX_STOP,
      description: `A stop sequence, or up to ${MAX_STOP}`,
    }),
  ),
  presence_penalty: maybe.number(-2, 2, 'Penalty for tokens already present; default 0'),
  frequency_penalty: maybe.number(-2, 2, 'Penalty by how often a token occurred; default 0'),
  seed: maybe.integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'Best-effort reproducible sampling'),
  logit_bias: Type.Optional(
    Nullable(
      Type.Record(Type.String(), Type.Number({ minimum: -100, maximum: 100 }), {
        maxProperties: MAX_LOGIT_BIAS,
        description: 'Token id (a string of digits) to a bias from -100 to 100',
      }),
    ),
  ),
  logprobs: maybe.boolean('Return log probabilities of the output tokens'),
  top_logprobs: maybe.integer(0, 20, 'Most likely alternatives per token; needs logprobs true'),
  user: Type.Optional(Type.String({ description: 'Stable id of the end user' })),
};

const TextParts = Type.Unsafe<string | { type: 'text'; text: string }[]>({
  type: ['string', 'array'],
  items: Closed({ type: StringEnum(['text'] as const), text: Type.String() }),
  minItems: 1,
});

const Mode = Nullable(Closed({ mode: StringEnum(['score', 'block'] as const) }));

/** The rest of what the openai SDK (v6) can send; checked, then passed on. */
const openAiOptions = {
  metadata: Type.Optional(
    Nullable(
      Type.Record(Type.String(), Type.String({ maxLength: 512 }), {
        maxProperties: 16,
        description: 'Up to 16 string pairs; keys up to 64 characters',
      }),
    ),
  ),
  store: maybe.boolean('Store the completion'),
  reasoning_effort: maybe.oneOf(
    ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const,
    'Effort of reasoning models',
  ),
  service_tier: maybe.oneOf(['auto', 'default', 'flex', 'scale', 'priority'] as const, 'Processing tier'),
  verbosity: maybe.oneOf(['low', 'medium', 'high'] as const, 'Length of the answer'),
  modalities: Type.Optional(
    Nullable(Type.Array(StringEnum(['text', 'audio'] as const), { minItems: 1, uniqueItems: true })),
  ),
  audio: Type.Optional(
    Nullable(
      Closed({
        format: StringEnum(['wav', 'aac', 'mp3', 'flac', 'opus', 'pcm16'] as const),
        voice: Type.Union([Type.String({ minLength: 1 }), Closed({ id: Type.String() })], {
          'x-rule': 'must be a voice name or {"id": …}',
        }),
      }),
    ),
  ),
  prediction: Type.Optional(Nullable(Closed({ type: StringEnum(['content'] as const), content: TextParts }))),
  web_search_options: Type.Optional(
    Closed({
      search_context_size: Type.Optional(StringEnum(['low', 'medium', 'high'] as const)),
      user_location: Type.Optional(
        Nullable(
          Closed({
            type: StringEnum(['approximate'] as const),
            approximate: Closed({
              city: Type.Optional(Type.String()),
              country: Type.Optional(Type.String()),
              region: Type.Optional(Type.String()),
              timezone: Type.Optional(Type.String()),
            }),
          }),
        ),
      ),
    }),
  ),
  prompt_cache_key: maybe.string('Groups requests that share a prompt prefix'),
  prompt_cache_options: Type.Optional(
    Closed({
      mode: Type.Optional(StringEnum(['implicit', 'explicit'] as const)),
      ttl: Type.Optional(StringEnum(['30m'] as const)),
    }),
  ),
  prompt_cache_retention: maybe.oneOf(['in_memory', '24h'] as const, 'Deprecated: prompt_cache_options.ttl'),
  safety_identifier: maybe.string('Stable, hashed id of the end user'),
  moderation: Type.Optional(
    Nullable(
      Closed({
        model: Type.String({ minLength: 1 }),
        policy: Type.Optional(Nullable(Closed({ input: Type.Optional(Mode), output: Type.Optional(Mode) }))),
      }),
    ),
  ),
};

/** Each key of the map at `field` must pass `test`; the violation names the key. */
function keysAre(field: string, test: (key: string) => boolean, rule: string): Rule {
  return (body) => {
    const map = body[field];
    return isRecord(map)
      ? Object.keys(map)
          .filter((key) => !test(key))
          .map((key) => ({ field: `${field}.${key}`, rule }))
      : [];
  };
}

const wantsAudio = (body: Record<string, unknown>) =>
  Array.isArray(body.modalities) && body.modalities.includes('audio');

const paramRules: readonly Rule[] = [
  allowedOnlyWhen('top_logprobs', (b) => b.logprobs === true, 'logprobs is true'),
  allowedOnlyWhen('stream_options', (b) => b.stream === true, 'stream is true'),
  // Both bound the same output, and a silent choice between two limits would surprise.
  mutuallyExclusive('max_tokens', 'max_completion_tokens'),
  requiredWhen('audio', wantsAudio, 'modalities includes audio'),
  keysAre('logit_bias', (k) => /^\d+$/.test(k), 'must be a token id: a string of digits'),
  keysAre('metadata', (k) => k.length <= 64, 'is a key over 64 characters; metadata keys are at most 64'),
];

const Usage = Type.Object({
  prompt_tokens: Type.Integer({ minimum: 0 }),
  completion_tokens: Type.Integer({ minimum: 0 }),
  total_tokens: Type.Integer({ minimum: 0 }),
});

const FinishReason = StringEnum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call'] as const);
const Logprobs = Nullable(Type.Object({}, { description: 'Present when logprobs was asked for' }));

export const ChatCompletion = Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion'),
  created: Type.Integer({ description: 'Unix seconds' }),
  model: Type.String(),
  choices: Type.Array(
    Type.Object({
      index: Type.Integer({ minimum: 0 }),
      message: Type.Object({
        role: Type.Literal('assistant'),
        // Null when the answer is tool calls only, as OpenAI answers (the spec shows only strings).
        content: Nullable(Type.String()),
        tool_calls: Type.Optional(Type.Array(ToolCall)),
        refusal: Type.Optional(Nullable(Type.String())),
      }),
      finish_reason: FinishReason,
      logprobs: Type.Optional(Logprobs),
    }),
  ),
  system_fingerprint: Type.Optional(Type.String()),
  usage: Type.Optional(Usage),
});

/** One `data:` event of a streamed answer. */
export const ChatCompletionChunk = Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion.chunk'),
  created: Type.Integer(),
  model: Type.String(),
  choices: Type.Array(
    Type.Object({
      index: Type.Integer({ minimum: 0 }),
      delta: Type.Object({
        role: Type.Optional(Type.Literal('assistant')),
        content: Type.Optional(Nullable(Type.String())),
        refusal: Type.Optional(Nullable(Type.String())),
        tool_calls: Type.Optional(
          Type.Array(
            Type.Object({
              index: Type.Integer({ minimum: 0 }),
              id: Type.Optional(Type.String()),
              type: Type.Optional(Type.Literal('function')),
              function: Type.Optional(
                Type.Object({ name: Type.Optional(Type.String()), arguments: Type.Optional(Type.String()) }),
              ),
            }),
          ),
        ),
      }),
      finish_reason: Nullable(FinishReason),
      logprobs: Type.Optional(Logprobs),
    }),
  ),
  system_fingerprint: Type.Optional(Type.String()),
  usage: Type.Optional(Nullable(Usage)),
});

function chatOperation(family: ChatFamily): Operation {
  return {
    path: `/${family.name}/chat/completions`,
    family: 'chat',
    kind: 'sync',
    summary: family.summary,
    accept: ['application/json', 'text/event-stream'],
    streams: (body) => body.stream === true,
    priceKey: `chat.${family.name}`,
    request: Closed({
      model: StringEnum(family.models, { description: 'Model to answer with' }),
      messages: Type.Array(Message(family.tools), { minItems: 1, description: 'The conversation so far' }),
      ...sampling,
      response_format: Type.Optional(ResponseFormat),
      ...toolMembers(family.tools),
      ...openAiOptions,
    }),
    rules: [...messageRules, ...paramRules, ...responseFormatRules, ...toolRules(family.tools)],
    response: ChatCompletion,
  };
}

export const chatmodel = chatOperation(CHATMODEL);
export const moon = chatOperation(MOON);
