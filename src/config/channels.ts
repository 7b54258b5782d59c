/**
 * The channels of the configuration: each channel type, with the families it serves, the member
 * it needs and what it talks to, and the schema of one channel, whose descriptions are written
 * from that table.
 */
import { Type, Closed, StringEnum, PatternString } from '../contract/schema.js';

export const FAMILIES = ['serp', 'clip', 'dance', 'maxi', 'tune', 'chat', 'qrart', 'identity'] as const;

/** A channel member that a type cannot do without (the others are optional or defaulted). */
type NeededKey = 'base_url' | 'model_path';

interface ChannelTypeInfo {
  serves: readonly (typeof FAMILIES)[number][];
  needs?: NeededKey;
  is: string;
}

/**
 * Each channel type: the capabilities it serves, the member it needs besides name, capability
 * and type, and what it talks to. The configuration's checks, its reference and the 503 that
 * tells an operator how to serve a family are all read from here.
 */
const channelTypes = {
  'openai-compatible': {
    serves: ['chat'],
    needs: 'base_url',
    is: 'any upstream speaking OpenAI chat completions',
  },
  'local-llm': { serves: ['chat'], needs: 'model_path', is: 'a GGUF model file run in-process' },
  searxng: { serves: ['serp'], needs: 'base_url', is: 'a SearXNG JSON API' },
  serper: { serves: ['serp'], is: 'a Serper-style API' },
  passthrough: {
    serves: ['chat', 'serp', 'clip', 'dance', 'maxi', 'tune', 'qrart', 'identity'],
    needs: 'base_url',
    is: 'an upstream speaking this same interface',
  },
  origin: {
    serves: ['chat', 'serp', 'clip', 'dance', 'maxi', 'tune', 'qrart', 'identity'],
    needs: 'base_url',
    is: 'the origin this interface was derived from, under its own paths and model names',
  },
  'local-index': { serves: ['serp'], is: 'the local search index' },
  kling: { serves: ['clip'], is: "Kling's video API" },
  seedance: { serves: ['dance'], is: 'the ModelArk content generation tasks API' },
  minimax: { serves: ['maxi'], is: 'MiniMax video generation' },
} satisfies Record<string, ChannelTypeInfo>;
export type ChannelType = keyof typeof channelTypes;
export const CHANNEL_TYPES: Readonly<Record<ChannelType, ChannelTypeInfo>> = channelTypes;

const typeList = Object.entries(CHANNEL_TYPES)
  .map(([type, { serves, is }]) => `\`${type}\` (${serves.join(', ')}): ${is}`)
  .join('; ');

const neededBy = (key: NeededKey) =>
  Object.entries(CHANNEL_TYPES)
    .filter(([, { needs }]) => needs === key)
    .map(([type]) => `\`${type}\``)
    .join(', ');

/** An upstream (or in-process model) that serves some models of one capability. */
export const Channel = Closed({
  name: PatternString('^[A-Za-z0-9_.-]{1,64}$', 'must be 1 to 64 letters, digits, _ . or -', {
    description: 'names the channel in logs and errors; unique',
  }),
  capability: StringEnum(FAMILIES, { description: 'the family the channel serves' }),
  type: StringEnum(Object.keys(CHANNEL_TYPES) as ChannelType[], {
    description: `what the channel talks to: ${typeList}`,
  }),
  base_url: Type.Optional(
    PatternString('^https?://', 'must be an http(s) URL', {
      description: `the upstream's address; required for ${neededBy('base_url')}`,
    }),
  ),
  api_key: Type.Optional(
    // It travels in an HTTP header: a character outside visible ASCII would fail every call.
    Type.String({
      minLength: 1,
      pattern: '^[\\x21-\\x7e]+$',
      'x-rule': 'must be visible ASCII characters (it is sent in an HTTP header)',
      description: "the upstream's key, sent as it expects it; hidden in logs",
    }),
  ),
  model_path: Type.Optional(
    Type.String({
      minLength: 1,
      description: `the GGUF model file; required for ${neededBy('model_path')} (local-llm.md)`,
    }),
  ),
  models: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    default: ['*'],
    description:
      'requested model names (chat, video), result types (serp) or operations (identity) this channel serves; `*` matches any run of characters',
  }),
  model_map: Type.Record(Type.String(), Type.String({ minLength: 1 }), {
    default: {},
    description: 'rename on the way upstream: `{requested: upstream}`; answers keep the requested name',
  }),
  priority: Type.Integer({ minimum: 0, default: 1, description: 'lower is tried first' }),
  weight: Type.Integer({ minimum: 1, default: 1, description: 'share among channels of equal priority' }),
  timeout_seconds: Type.Number({
    exclusiveMinimum: 0,
    maximum: 3600,
    default: 120,
    description:
      "time allowed to an upstream: chat until the answer begins and then between chunks, video until the upstream's video is ready",
  }),
  probe_interval_seconds: Type.Optional(
    Type.Number({
      minimum: 0.05,
      maximum: 86_400,
      description: 'how often this channel is probed; `health.probe_interval_seconds` when absent',
    }),
  ),
});
