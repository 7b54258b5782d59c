/**
 * The shape of the configuration file, with its defaults. One schema serves validation (clear
 * messages naming the key), the documented defaults and the types the rest of the code reads.
 */
import { Type, Closed, StringEnum, PatternString, Nullable, type Static } from '../contract/schema.js';

const Price = Type.Union(
  [
    Type.Integer({ minimum: 0 }),
    Closed({
      default: Type.Optional(Type.Integer({ minimum: 0 })),
      models: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0 }))),
      actions: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0 }))),
      per_1k_tokens: Type.Optional(
        Closed({
          prompt: Type.Number({ minimum: 0, default: 0 }),
          completion: Type.Number({ minimum: 0, default: 0 }),
        }),
      ),
    }),
  ],
  { 'x-rule': 'must be a number of credits, or {default, models, actions, per_1k_tokens}' },
);

export const FAMILIES = ['serp', 'clip', 'dance', 'maxi', 'tune', 'chat', 'qrart', 'identity'] as const;
export const CHANNEL_TYPES = [
  'openai-compatible',
  'local-llm',
  'searxng',
  'serper',
  'passthrough',
  'local-index',
  'kling',
  'seedance',
  'minimax',
] as const;

/** Which capabilities each channel type serves. */
export const CHANNEL_CAPABILITY: Readonly<Record<(typeof CHANNEL_TYPES)[number], readonly string[]>> = {
  'openai-compatible': ['chat'],
  'local-llm': ['chat'],
  searxng: ['serp'],
  serper: ['serp'],
  passthrough: ['serp', 'clip', 'dance', 'maxi', 'identity'],
  'local-index': ['serp'],
  kling: ['clip'],
  seedance: ['dance'],
  minimax: ['maxi'],
};

/** An upstream (or in-process model) that serves some models of one capability. */
const Channel = Closed({
  name: PatternString('^[A-Za-z0-9_.-]{1,64}$', 'must be 1 to 64 letters, digits, _ . or -'),
  capability: StringEnum(FAMILIES),
  type: StringEnum(CHANNEL_TYPES, {
    description:
      'chat: openai-compatible (any upstream speaking OpenAI chat completions), local-llm (a GGUF file run in-process); ' +
      'serp: searxng (a SearXNG JSON API), serper (a Serper-style API), passthrough (an upstream speaking /serp/web), local-index (the local search index); ' +
      "clip: kling (Kling's video API); dance: seedance (the ModelArk content generation tasks API); maxi: minimax (MiniMax video generation); " +
      'clip, dance, maxi, identity: passthrough (an upstream speaking this same interface)',
  }),
  base_url: Type.Optional(PatternString('^https?://', 'must be an http(s) URL')),
  api_key: Type.Optional(Type.String({ minLength: 1 })),
  model_path: Type.Optional(Type.String({ minLength: 1, description: 'local-llm: the GGUF file' })),
  models: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    default: ['*'],
    description:
      'requested model names (chat) or result types (serp) this channel serves; * matches any run of characters',
  }),
  model_map: Type.Record(Type.String(), Type.String({ minLength: 1 }), {
    default: {},
    description: 'rename on the way upstream: {requested: upstream}',
  }),
  priority: Type.Integer({ minimum: 0, default: 1, description: 'lower is tried first' }),
  weight: Type.Integer({ minimum: 1, default: 1, description: 'share among channels of equal priority' }),
  timeout_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 120 }),
});

export const ConfigSchema = Closed({
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  host: Type.String({ minLength: 1, default: '127.0.0.1' }),
  data_dir: Type.String({ minLength: 1, default: './data' }),
  /** Base of the URLs of produced files; derived from host and port when absent. */
  public_base_url: Type.Optional(PatternString('^https?://', 'must be an http(s) URL')),
  database: Closed(
    {
      url: Type.Optional(
        PatternString('^(sqlite:|postgres(ql)?://)', 'must be sqlite:<path> or postgres://…'),
      ),
      pool_size: Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 10,
        description: 'PostgreSQL connections',
      }),
    },
    { default: {} },
  ),
  outbound: Closed(
    {
      allow_private: Type.Boolean({ default: false }),
      allow_cidrs: Type.Array(Type.String(), { default: [] }),
      timeout_ms: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
      max_redirects: Type.Integer({ minimum: 0, maximum: 20, default: 5 }),
    },
    { default: {} },
  ),
  limits: Closed(
    {
      body_bytes: Type.Integer({ minimum: 1024, default: 10 * 1024 * 1024 }),
      sync_wait_seconds: Type.Integer({ minimum: 1, maximum: 86_400, default: 600 }),
    },
    { default: {} },
  ),
  tokens: Closed(
    {
      default_rate_per_second: Nullable(Type.Number({ exclusiveMinimum: 0, default: 50 })),
      default_concurrency: Nullable(Type.Integer({ minimum: 1, default: 16 })),
      cache_ms: Type.Integer({
        minimum: 0,
        maximum: 60_000,
        default: 2000,
        description: 'how long a node trusts a token it has read; revocations elsewhere wait this long',
      }),
    },
    { default: {} },
  ),
  tasks: Closed(
    {
      expires_seconds: Type.Integer({
        minimum: 1,
        maximum: 2_592_000,
        default: 86_400,
        description: 'deadline of a task (dance takes execution_expires_after from the request)',
      }),
      concurrency: Type.Integer({
        minimum: 1,
        maximum: 1024,
        default: 8,
        description: 'jobs at a time per family',
      }),
      concurrency_by_family: Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: 1024 }), {
        default: {},
      }),
      lease_seconds: Type.Integer({ minimum: 2, maximum: 3600, default: 30 }),
      poll_ms: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
    },
    { default: {} },
  ),
  callbacks: Closed(
    {
      timeout_ms: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),
      backoff_seconds: Type.Array(Type.Number({ exclusiveMinimum: 0 }), {
        minItems: 0,
        default: [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800],
        description: 'wait before each retry; its length is the number of retries',
      }),
      concurrency: Type.Integer({ minimum: 1, maximum: 1024, default: 16 }),
      poll_ms: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
    },
    { default: {} },
  ),
  redis: Closed(
    {
      url: Type.Optional(
        PatternString('^rediss?://', 'must be a redis:// or rediss:// URL', {
          description: 'when set: the task queue (BullMQ), rate limits and task events live in Redis',
        }),
      ),
      prefix: PatternString('^[A-Za-z0-9_.-]{1,64}$', 'must be 1 to 64 letters, digits, _ . or -', {
        default: 'switchyard',
        description: 'keeps deployments that share one Redis apart',
      }),
    },
    { default: {} },
  ),
  workers: Closed(
    {
      embedded: Type.Boolean({
        default: true,
        description: 'run task workers in the API process; false for API nodes that only accept and watch',
      }),
    },
    { default: {} },
  ),
  blobs: Closed(
    {
      dir: Type.Optional(Type.String({ minLength: 1 })),
      s3: Type.Optional(
        Closed({
          bucket: Type.String({ minLength: 3, maxLength: 63 }),
          region: Type.String({ minLength: 1, default: 'us-east-1' }),
          endpoint: Type.Optional(PatternString('^https?://', 'must be an http(s) URL')),
          access_key_id: Type.Optional(Type.String({ minLength: 1 })),
          secret_access_key: Type.Optional(Type.String({ minLength: 1 })),
          force_path_style: Type.Boolean({ default: false }),
          files: StringEnum(['proxy', 'redirect'] as const, {
            default: 'proxy',
            description: '/files/ streams the object (proxy) or redirects to a presigned URL (redirect)',
          }),
          presign_seconds: Type.Integer({ minimum: 1, maximum: 604_800, default: 900 }),
        }),
      ),
      retention_days: Type.Number({ minimum: 0, default: 30, description: '0 keeps files forever' }),
    },
    { default: {} },
  ),
  log: Closed(
    {
      level: StringEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
        default: 'info',
      }),
    },
    { default: {} },
  ),
  channels: Type.Array(Channel, { default: [], description: 'upstream channels and local models' }),
  search: Closed(
    {
      index_path: Type.Optional(
        Type.String({
          minLength: 1,
          description: 'the local search index; <data_dir>/search-index.db when absent',
        }),
      ),
      remember_queries: Type.Boolean({
        default: true,
        description: "keep each token's past queries in the index, for its related searches",
      }),
    },
    { default: {} },
  ),
  music: Closed(
    {
      lyrics_model: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            'chat model that writes lyrics for lyric_prompt; the first model a chat channel names when absent, the local lyric writer without chat channels',
        }),
      ),
      workers: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 64,
          description: 'threads composing and processing audio at a time; one per core when absent',
        }),
      ),
    },
    { default: {} },
  ),
  video: Closed(
    {
      workers: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 64,
          description: 'threads rendering videos at a time (all three families); one per core when absent',
        }),
      ),
    },
    { default: {} },
  ),
  identity: Closed(
    {
      key: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            'base64 of 32 bytes sealing the identity registry and the field keys; the same on every node; key_file when absent',
        }),
      ),
      key_file: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            'where the identity key is kept (created on first use); <data_dir>/identity.key when absent',
        }),
      ),
      keep_images: Type.Boolean({
        default: false,
        description:
          'keep each ID card image in the file store; by default an image lives only for its request',
      }),
      workers: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 64,
          description: 'threads reading ID cards at a time; one per core when absent',
        }),
      ),
    },
    { default: {} },
  ),
  routing: Closed(
    {
      retries: Type.Integer({
        minimum: 0,
        maximum: 10,
        default: 2,
        description: 'retries per channel on 429, 5xx, network errors',
      }),
      backoff_ms: Type.Integer({
        minimum: 0,
        maximum: 60_000,
        default: 200,
        description: 'first retry delay; doubles each retry',
      }),
      cooldown_after: Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 3,
        description: 'consecutive failures that cool a channel down',
      }),
      cooldown_seconds: Type.Number({ minimum: 0, maximum: 3600, default: 30 }),
    },
    { default: {} },
  ),
  prices: Type.Record(Type.String(), Price, { default: {} }),
});

export type ConfigInput = Static<typeof ConfigSchema>;
export type Price = Static<typeof Price>;
