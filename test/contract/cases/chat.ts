import type { InvalidCase, ValidCase } from './types.js';

const chat = '/chatmodel/chat/completions';
const moon = '/moon/chat/completions';

const hi = [{ role: 'user', content: 'Hi' }];
const on = (extra: Record<string, unknown>) => ({ model: 'chatmodel-4o', messages: hi, ...extra });
const onMoon = (extra: Record<string, unknown>) => ({ model: 'moon-k2.5', messages: hi, ...extra });
const say = (...messages: unknown[]) => on({ messages });
const part = (p: Record<string, unknown>) => say({ role: 'user', content: [p] });

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const call = {
  id: 'call_1',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
};
/** The assistant message of a completion, sent back unchanged as the SDK examples do. */
const echoed = { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: [call] };
const answered = { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":18}' };
const callWith = (fn: Record<string, unknown>) => ({ ...call, function: { ...call.function, ...fn } });

const messageCases: InvalidCase[] = [
  { path: chat, name: 'model missing', body: { messages: hi }, field: 'model' },
  { path: chat, name: 'model of the other family', body: on({ model: 'moon-k2.5' }), field: 'model' },
  { path: moon, name: 'chatmodel model on moon', body: onMoon({ model: 'chatmodel-4o' }), field: 'model' },
  { path: chat, name: 'messages missing', body: { model: 'o3' }, field: 'messages' },
  { path: chat, name: 'messages empty', body: on({ messages: [] }), field: 'messages' },
  { path: chat, name: 'messages not an array', body: on({ messages: 'Hi' }), field: 'messages' },
  { path: chat, name: 'role unknown', body: say({ role: 'robot', content: 'x' }), field: 'messages[0].role' },
  { path: chat, name: 'role missing', body: say({ content: 'x' }), field: 'messages[0].role' },
  {
    path: chat,
    name: 'message member unknown',
    body: say({ ...hi[0], lang: 'en' }),
    field: 'messages[0].lang',
  },
  { path: chat, name: 'name not a string', body: say({ ...hi[0], name: 7 }), field: 'messages[0].name' },
  { path: chat, name: 'content missing', body: say({ role: 'user' }), field: 'messages[0].content' },
  {
    path: chat,
    name: 'content null for user',
    body: say({ role: 'user', content: null }),
    field: 'messages[0].content',
  },
  {
    path: chat,
    name: 'content null for assistant without tool_calls',
    body: say(hi[0], { role: 'assistant', content: null }),
    field: 'messages[1].content',
  },
  {
    path: chat,
    name: 'content a number',
    body: say({ role: 'user', content: 5 }),
    field: 'messages[0].content',
  },
  {
    path: chat,
    name: 'content parts empty',
    body: say({ role: 'user', content: [] }),
    field: 'messages[0].content',
  },
  {
    path: chat,
    name: 'part type unknown',
    body: part({ type: 'video', text: 'x' }),
    field: 'messages[0].content[0].type',
  },
  {
    path: chat,
    name: 'text part without text',
    body: part({ type: 'text' }),
    field: 'messages[0].content[0].text',
  },
  {
    path: chat,
    name: 'image part without image_url',
    body: part({ type: 'image_url' }),
    field: 'messages[0].content[0].image_url',
  },
  {
    path: chat,
    name: 'text part with image_url',
    body: part({ type: 'text', text: 'x', image_url: { url: 'https://a.example/i.png' } }),
    field: 'messages[0].content[0].image_url',
  },
  {
    path: chat,
    name: 'image url not http(s) or data',
    body: part({ type: 'image_url', image_url: { url: 'ftp://a.example/i.png' } }),
    field: 'messages[0].content[0].image_url.url',
  },
  {
    path: chat,
    name: 'image detail unknown',
    body: part({ type: 'image_url', image_url: { url: 'https://a.example/i.png', detail: 'max' } }),
    field: 'messages[0].content[0].image_url.detail',
  },
  {
    path: chat,
    name: 'image in a system message',
    body: say(
      { role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://a.example/i.png' } }] },
      hi[0],
    ),
    field: 'messages[0].content[0].type',
  },
  {
    path: chat,
    name: 'tool_calls on a user message',
    body: say({ ...hi[0], tool_calls: [call] }),
    field: 'messages[0].tool_calls',
  },
  {
    path: chat,
    name: 'refusal on a user message',
    body: say({ ...hi[0], refusal: 'no' }),
    field: 'messages[0].refusal',
  },
  {
    path: chat,
    name: 'tool call of another type',
    body: say(hi[0], { ...echoed, tool_calls: [{ ...call, type: 'custom' }] }, answered),
    field: 'messages[1].tool_calls[0].type',
  },
  {
    path: chat,
    name: 'tool call without id',
    body: say(hi[0], { ...echoed, tool_calls: [{ type: 'function', function: call.function }] }),
    field: 'messages[1].tool_calls[0].id',
  },
  {
    path: chat,
    name: 'tool call arguments as an object',
    body: say(hi[0], { ...echoed, tool_calls: [callWith({ arguments: { city: 'Paris' } })] }, answered),
    field: 'messages[1].tool_calls[0].function.arguments',
  },
  {
    path: chat,
    name: 'tool message without tool_call_id',
    body: say(hi[0], echoed, { role: 'tool', content: 'x' }),
    field: 'messages[2].tool_call_id',
  },
  {
    path: chat,
    name: 'tool_call_id answering no earlier call',
    body: say(hi[0], echoed, { ...answered, tool_call_id: 'call_9' }),
    field: 'messages[2].tool_call_id',
  },
  {
    path: chat,
    name: 'tool_call_id on a user message',
    body: say({ ...hi[0], tool_call_id: 'call_1' }),
    field: 'messages[0].tool_call_id',
  },
  {
    path: moon,
    name: 'tool role on moon',
    body: onMoon({ messages: [hi[0], { role: 'tool', content: 'x' }] }),
    field: 'messages[1].role',
  },
  {
    path: moon,
    name: 'tool_call_id on moon',
    body: onMoon({ messages: [{ ...hi[0], tool_call_id: 'call_1' }] }),
    field: 'messages[0].tool_call_id',
  },
  {
    path: moon,
    name: 'assistant tool_calls on moon',
    body: onMoon({ messages: [hi[0], echoed] }),
    field: 'messages[1].tool_calls',
  },
];

const paramCases: InvalidCase[] = [
  { path: chat, name: 'member unknown', body: on({ temprature: 1 }), field: 'temprature' },
  { path: chat, name: 'n zero', body: on({ n: 0 }), field: 'n' },
  { path: chat, name: 'n over 128', body: on({ n: 129 }), field: 'n' },
  { path: chat, name: 'n fractional', body: on({ n: 1.5 }), field: 'n' },
  { path: chat, name: 'stream a string', body: on({ stream: 'true' }), field: 'stream' },
  { path: chat, name: 'max_tokens zero', body: on({ max_tokens: 0 }), field: 'max_tokens' },
  {
    path: chat,
    name: 'max_completion_tokens fractional',
    body: on({ max_completion_tokens: 2.5 }),
    field: 'max_completion_tokens',
  },
  {
    path: chat,
    name: 'max_tokens and max_completion_tokens together',
    body: on({ max_tokens: 10, max_completion_tokens: 10 }),
    field: 'max_completion_tokens',
  },
  { path: chat, name: 'temperature over 2', body: on({ temperature: 2.1 }), field: 'temperature' },
  { path: moon, name: 'temperature negative', body: onMoon({ temperature: -0.1 }), field: 'temperature' },
  { path: chat, name: 'top_p over 1', body: on({ top_p: 1.5 }), field: 'top_p' },
  { path: chat, name: 'stop with 5 sequences', body: on({ stop: ['a', 'b', 'c', 'd', 'e'] }), field: 'stop' },
  { path: chat, name: 'stop a number', body: on({ stop: 3 }), field: 'stop' },
  { path: chat, name: 'stop item not a string', body: on({ stop: ['a', 3] }), field: 'stop[1]' },
  {
    path: chat,
    name: 'presence_penalty over 2',
    body: on({ presence_penalty: 3 }),
    field: 'presence_penalty',
  },
  {
    path: chat,
    name: 'frequency_penalty under -2',
    body: on({ frequency_penalty: -2.5 }),
    field: 'frequency_penalty',
  },
  { path: chat, name: 'seed fractional', body: on({ seed: 1.5 }), field: 'seed' },
  { path: chat, name: 'user not a string', body: on({ user: 42 }), field: 'user' },
  { path: chat, name: 'logit_bias not an object', body: on({ logit_bias: [1] }), field: 'logit_bias' },
  {
    path: chat,
    name: 'logit_bias key not a token id',
    body: on({ logit_bias: { hello: 5 } }),
    field: 'logit_bias.hello',
  },
  {
    path: chat,
    name: 'logit_bias value over 100',
    body: on({ logit_bias: { '50256': 101 } }),
    field: 'logit_bias[50256]',
  },
  { path: chat, name: 'logprobs a string', body: on({ logprobs: 'yes' }), field: 'logprobs' },
  {
    path: chat,
    name: 'top_logprobs over 20',
    body: on({ logprobs: true, top_logprobs: 21 }),
    field: 'top_logprobs',
  },
  { path: chat, name: 'top_logprobs without logprobs', body: on({ top_logprobs: 3 }), field: 'top_logprobs' },
  {
    path: chat,
    name: 'stream_options without stream',
    body: on({ stream_options: { include_usage: true } }),
    field: 'stream_options',
  },
  {
    path: chat,
    name: 'stream_options.include_usage not boolean',
    body: on({ stream: true, stream_options: { include_usage: 'yes' } }),
    field: 'stream_options.include_usage',
  },
  {
    path: chat,
    name: 'response_format type unknown',
    body: on({ response_format: { type: 'xml' } }),
    field: 'response_format.type',
  },
  {
    path: chat,
    name: 'json_schema type without json_schema',
    body: on({ response_format: { type: 'json_schema' } }),
    field: 'response_format.json_schema',
  },
  {
    path: chat,
    name: 'json_schema with type text',
    body: on({ response_format: { type: 'text', json_schema: { name: 'x' } } }),
    field: 'response_format.json_schema',
  },
  {
    path: moon,
    name: 'json_schema name with spaces',
    body: onMoon({ response_format: { type: 'json_schema', json_schema: { name: 'my schema' } } }),
    field: 'response_format.json_schema.name',
  },
  {
    path: chat,
    name: 'json_schema schema not an object',
    body: on({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema: 'object' } } }),
    field: 'response_format.json_schema.schema',
  },
  {
    path: chat,
    name: 'json_schema strict not boolean',
    body: on({ response_format: { type: 'json_schema', json_schema: { name: 'x', strict: 'yes' } } }),
    field: 'response_format.json_schema.strict',
  },
];

const openAiCases: InvalidCase[] = [
  { path: chat, name: 'metadata value not a string', body: on({ metadata: { a: 1 } }), field: 'metadata.a' },
  {
    path: chat,
    name: 'metadata key over 64',
    body: on({ metadata: { ['k'.repeat(65)]: 'v' } }),
    field: `metadata.${'k'.repeat(65)}`,
  },
  {
    path: chat,
    name: 'metadata over 16 pairs',
    body: on({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }),
    field: 'metadata',
  },
  { path: chat, name: 'store a string', body: on({ store: 'yes' }), field: 'store' },
  {
    path: chat,
    name: 'reasoning_effort unknown',
    body: on({ reasoning_effort: 'extreme' }),
    field: 'reasoning_effort',
  },
  { path: chat, name: 'service_tier unknown', body: on({ service_tier: 'gold' }), field: 'service_tier' },
  { path: chat, name: 'verbosity unknown', body: on({ verbosity: 'loud' }), field: 'verbosity' },
  { path: chat, name: 'modality unknown', body: on({ modalities: ['video'] }), field: 'modalities[0]' },
  {
    path: chat,
    name: 'audio modality without audio',
    body: on({ modalities: ['text', 'audio'] }),
    field: 'audio',
  },
  {
    path: chat,
    name: 'audio format unknown',
    body: on({ audio: { format: 'ogg', voice: 'alloy' } }),
    field: 'audio.format',
  },
  {
    path: chat,
    name: 'audio voice a number',
    body: on({ audio: { format: 'mp3', voice: 3 } }),
    field: 'audio.voice',
  },
  {
    path: chat,
    name: 'prediction type unknown',
    body: on({ prediction: { type: 'text', content: 'x' } }),
    field: 'prediction.type',
  },
  {
    path: chat,
    name: 'web search context size unknown',
    body: on({ web_search_options: { search_context_size: 'huge' } }),
    field: 'web_search_options.search_context_size',
  },
  {
    path: chat,
    name: 'web search location type unknown',
    body: on({ web_search_options: { user_location: { type: 'exact', approximate: {} } } }),
    field: 'web_search_options.user_location.type',
  },
  {
    path: chat,
    name: 'prompt_cache_key a number',
    body: on({ prompt_cache_key: 1 }),
    field: 'prompt_cache_key',
  },
  {
    path: chat,
    name: 'prompt cache ttl unknown',
    body: on({ prompt_cache_options: { ttl: '1h' } }),
    field: 'prompt_cache_options.ttl',
  },
  {
    path: chat,
    name: 'prompt_cache_retention unknown',
    body: on({ prompt_cache_retention: '1w' }),
    field: 'prompt_cache_retention',
  },
  {
    path: chat,
    name: 'safety_identifier a number',
    body: on({ safety_identifier: 1 }),
    field: 'safety_identifier',
  },
  { path: chat, name: 'moderation without model', body: on({ moderation: {} }), field: 'moderation.model' },
];

const toolCases: InvalidCase[] = [
  { path: chat, name: 'tools not an array', body: on({ tools: weather }), field: 'tools' },
  {
    path: chat,
    name: 'tools over 128',
    body: on({
      tools: Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `f${i}` } })),
    }),
    field: 'tools',
  },
  {
    path: chat,
    name: 'tool of another type',
    body: on({ tools: [{ ...weather, type: 'custom' }] }),
    field: 'tools[0].type',
  },
  {
    path: chat,
    name: 'tool name with a dot',
    body: on({ tools: [{ type: 'function', function: { name: 'get.weather' } }] }),
    field: 'tools[0].function.name',
  },
  {
    path: chat,
    name: 'tool parameters not an object',
    body: on({ tools: [{ type: 'function', function: { name: 'f', parameters: 'none' } }] }),
    field: 'tools[0].function.parameters',
  },
  {
    path: chat,
    name: 'tool names repeated',
    body: on({ tools: [weather, weather] }),
    field: 'tools[1].function.name',
  },
  {
    path: chat,
    name: 'tool_choice unknown',
    body: on({ tools: [weather], tool_choice: 'any' }),
    field: 'tool_choice',
  },
  {
    path: chat,
    name: 'tool_choice required without tools',
    body: on({ tool_choice: 'required' }),
    field: 'tool_choice',
  },
  {
    path: chat,
    name: 'tool_choice names an undeclared tool',
    body: on({ tools: [weather], tool_choice: { type: 'function', function: { name: 'get_time' } } }),
    field: 'tool_choice.function.name',
  },
  {
    path: chat,
    name: 'tool_choice names a tool without tools',
    body: on({ tool_choice: { type: 'function', function: { name: 'get_weather' } } }),
    field: 'tool_choice',
  },
  {
    path: chat,
    name: 'parallel_tool_calls without tools',
    body: on({ parallel_tool_calls: false }),
    field: 'parallel_tool_calls',
  },
  {
    path: chat,
    name: 'parallel_tool_calls not boolean',
    body: on({ tools: [weather], parallel_tool_calls: 'no' }),
    field: 'parallel_tool_calls',
  },
  {
    path: chat,
    name: 'function name with a space',
    body: on({ functions: [{ name: 'get weather' }] }),
    field: 'functions[0].name',
  },
  {
    path: chat,
    name: 'function_call names an undeclared function',
    body: on({ functions: [weather.function], function_call: { name: 'get_time' } }),
    field: 'function_call.name',
  },
  {
    path: chat,
    name: 'function_call required',
    body: on({ functions: [weather.function], function_call: 'required' }),
    field: 'function_call',
  },
  { path: moon, name: 'tools on moon', body: onMoon({ tools: [weather] }), field: 'tools' },
  { path: moon, name: 'tool_choice on moon', body: onMoon({ tool_choice: 'auto' }), field: 'tool_choice' },
  {
    path: moon,
    name: 'parallel_tool_calls on moon',
    body: onMoon({ parallel_tool_calls: true }),
    field: 'parallel_tool_calls',
  },
  {
    path: moon,
    name: 'functions on moon',
    body: onMoon({ functions: [weather.function] }),
    field: 'functions',
  },
  {
    path: moon,
    name: 'function_call on moon',
    body: onMoon({ function_call: 'auto' }),
    field: 'function_call',
  },
];

export const invalid: InvalidCase[] = [...messageCases, ...paramCases, ...openAiCases, ...toolCases];

export const valid: ValidCase[] = [
  { path: chat, name: 'minimal', body: on({}) },
  { path: moon, name: 'minimal', body: onMoon({}) },
  {
    path: chat,
    name: 'openai SDK tool round trip',
    body: on({
      model: 'chatmodel-4.1',
      messages: [{ role: 'developer', content: 'Use tools.' }, hi[0], echoed, answered],
      tools: [{ ...weather, function: { ...weather.function, strict: true } }],
      tool_choice: 'auto',
      parallel_tool_calls: false,
    }),
  },
  {
    path: chat,
    name: 'named tool choice',
    body: on({ tools: [weather], tool_choice: { type: 'function', function: { name: 'get_weather' } } }),
  },
  {
    path: chat,
    name: 'streaming with usage',
    body: on({ stream: true, stream_options: { include_usage: true }, max_completion_tokens: 256 }),
  },
  { path: moon, name: 'streaming', body: onMoon({ stream: true, stream_options: { include_usage: false } }) },
  {
    path: chat,
    name: 'image and text parts',
    body: say(
      { role: 'system', content: [{ type: 'text', text: 'Describe images.' }] },
      {
        role: 'user',
        name: 'ann',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
        ],
      },
    ),
  },
  {
    path: moon,
    name: 'every sampling member',
    body: onMoon({
      model: 'moon-k2-thinking',
      n: 2,
      max_tokens: 100,
      temperature: 0,
      top_p: 1,
      stop: ['\n\n', 'END'],
      presence_penalty: -2,
      frequency_penalty: 2,
      seed: 42,
      user: 'u-1',
      logit_bias: { '50256': -100, '13': 100 },
      logprobs: true,
      top_logprobs: 20,
    }),
  },
  {
    path: chat,
    name: 'nulls where OpenAI allows them, as generic clients send',
    body: on({
      n: null,
      stream: null,
      max_tokens: null,
      temperature: null,
      top_p: null,
      stop: null,
      seed: null,
      logit_bias: null,
      tools: null,
      response_format: { type: 'text' },
    }),
  },
  {
    path: moon,
    name: 'tool members null',
    body: onMoon({ tools: null, tool_choice: null, functions: null }),
  },
  {
    path: chat,
    name: 'structured output',
    body: on({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'weather_report',
          description: 'A report',
          schema: { type: 'object' },
          strict: true,
        },
      },
    }),
  },
  { path: moon, name: 'json mode', body: onMoon({ response_format: { type: 'json_object' } }) },
  {
    path: chat,
    name: 'the other openai SDK members',
    body: on({
      metadata: { team: 'a' },
      store: false,
      reasoning_effort: 'low',
      service_tier: 'auto',
      verbosity: 'medium',
      modalities: ['text', 'audio'],
      audio: { format: 'mp3', voice: 'alloy' },
      prediction: { type: 'content', content: [{ type: 'text', text: 'draft' }] },
      web_search_options: {
        search_context_size: 'low',
        user_location: { type: 'approximate', approximate: { city: 'Paris' } },
      },
      prompt_cache_key: 'k',
      prompt_cache_options: { mode: 'explicit', ttl: '30m' },
      prompt_cache_retention: '24h',
      safety_identifier: 'h-1',
      moderation: { model: 'omni-moderation-latest', policy: { input: { mode: 'block' }, output: null } },
    }),
  },
  {
    path: chat,
    name: 'deprecated functions',
    body: on({ functions: [weather.function], function_call: { name: 'get_weather' } }),
  },
  {
    path: chat,
    name: 'assistant turn with text, then a user turn',
    body: say(
      hi[0],
      { role: 'assistant', content: 'Hello!', refusal: null },
      { role: 'user', content: 'Bye' },
    ),
  },
];
