/**
 * The shape of the configuration file, with its defaults. One schema serves validation (clear
 * messages naming the key), the documented defaults and the types the rest of the code reads.
 * The channels (channels.ts) and the local engines' sections (local-engines.ts) have files of
 * their own.
 */
import { Type, Closed, StringEnum, PatternString, Nullable, type Static } from '../contract/schema.js';
import { Channel } from './channels.js';
import { IdentitySection, MusicSection, SearchSection, VideoSection } from './local-engines.js';

export { CHANNEL_TYPES, FAMILIES, type ChannelType } from './channels.js';

const Rate = Type.Number({ minimum: 0 });

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
      per_1k: Type.Optional(
        Closed({
          input: Type.Number({ minimum: 0, default: 0 }),
          output: Type.Number({ minimum: 0, default: 0 }),
          cached: Type.Optional(Rate),
        }),
      ),
      per_second: Type.Optional(
        Type.Record(PatternString('^[0-9]+p$', 'must be a resolution band such as 720p'), Rate, {
          minProperties: 1,
        }),
      ),
      per_song: Type.Optional(Rate),
      per_minute: Type.Optional(Rate),
      per_image: Type.Optional(Rate),
    }),
  ],
  {
    'x-rule':
      'must be a number of credits, or {default, models, actions, per_1k, per_1k_tokens, per_second, per_song, per_minute, per_image}',
  },
);

export const ConfigSchema = Closed({
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'port to listen on' }),
  host: Type.String({
    minLength: 1,
    default: '127.0.0.1',
    description: 'address to listen on; `0.0.0.0` to serve other machines',
  }),
  data_dir: Type.String({
    minLength: 1,
    default: './data',
    description: 'where the database and produced files live (relative to the working directory)',
  }),
  public_base_url: Type.Optional(
    PatternString('^https?://', 'must be an http(s) URL', {
      'x-default': '`http://{host}:{port}`',
      description: 'base of the URLs of produced files (`/files/<key>`); set it behind a proxy',
    }),
  ),
  trust_proxy: Type.Union([Type.Boolean(), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })], {
    default: false,
    'x-rule': 'must be true, false or a list of addresses and CIDR ranges',
    description:
      "whose `X-Forwarded-For`, `-Proto` and `-Host` to believe: `false` (nobody: the default), `true` (any peer: only when every request comes through the proxy), or the proxies' addresses and CIDR ranges (`[127.0.0.1, 10.0.0.0/8]`; `loopback`, `linklocal` and `uniquelocal` name those ranges); the client address (rate limits, the failed sign-in throttle, the request log) and `https` (the console cookie's `Secure`, its origin check) are read from them",
  }),
  database: Closed(
    {
      url: Type.Optional(
        PatternString('^(sqlite:|postgres(ql)?://)', 'must be sqlite:<path> or postgres://…', {
          'x-default': '`sqlite:{data_dir}/switchyard.db`',
          description:
            '`sqlite:<path>` (or `sqlite::memory:`), or `postgres://user:password@host:5432/db` (deployment.md)',
        }),
      ),
      pool_size: Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 10,
        description: 'PostgreSQL connections per process',
      }),
    },
    { default: {}, description: 'where tokens, credits, tasks and the registry are kept' },
  ),
  outbound: Closed(
    {
      allow_private: Type.Boolean({
        default: false,
        description:
          'let the service reach private, loopback and link-local addresses for the URLs clients give (development and tests only)',
      }),
      allow_cidrs: Type.Array(Type.String(), {
        default: [],
        description: 'ranges always allowed, e.g. `["10.1.2.0/24"]` for an internal upstream',
      }),
      timeout_ms: Type.Integer({
        minimum: 100,
        maximum: 600_000,
        default: 30_000,
        description: 'connect, header and body time limit of outbound requests',
      }),
      max_redirects: Type.Integer({
        minimum: 0,
        maximum: 20,
        default: 5,
        description: 'redirects followed (each hop is checked)',
      }),
    },
    {
      default: {},
      description:
        'the guard on the requests the service makes for clients: input media and callbacks (security.md)',
    },
  ),
  limits: Closed(
    {
      body_bytes: Type.Integer({
        minimum: 1024,
        default: 10 * 1024 * 1024,
        description: 'largest request body (413 above it)',
      }),
      sync_wait_seconds: Type.Integer({
        minimum: 1,
        maximum: 86_400,
        default: 600,
        description: 'how long a synchronous generation waits before 504 `timeout`',
      }),
      mcp_wait_seconds: Type.Integer({
        minimum: 1,
        maximum: 86_400,
        default: 50,
        description:
          "how long an MCP tool call waits for its task before it answers the task as it stands (it goes on, for `get_task`); below MCP clients' usual 60 s request timeout, whose expiry cancels the call",
      }),
      hold_seconds: Type.Integer({
        minimum: 1,
        default: 3600,
        description:
          "how long the credits a synchronous request holds stay held without an answer (its process died) before they are given back; longer than any request runs: the configuration is refused unless it exceeds `limits.sync_wait_seconds`, `limits.mcp_wait_seconds` and the longest call through the channels of a family answered synchronously (chat, serp, tune, identity): every channel's `timeout_seconds` times `routing.retries` + 1, with the `routing.backoff_ms` pauses",
      }),
    },
    { default: {}, description: 'what one request may ask of the server' },
  ),
  tokens: Closed(
    {
      default_rate_per_second: Nullable(
        Type.Number({
          exclusiveMinimum: 0,
          default: 50,
          description: 'rate given to tokens created without `--rate` (`null`: unlimited)',
        }),
      ),
      default_concurrency: Nullable(
        Type.Integer({
          minimum: 1,
          default: 16,
          description: 'concurrent requests for tokens created without `--concurrency` (`null`: unlimited)',
        }),
      ),
      cache_ms: Type.Integer({
        minimum: 0,
        maximum: 60_000,
        default: 2000,
        description:
          'how long a node trusts a token it has read (0: read every time); a revocation or edit made anywhere takes effect within a second whatever this says, since every node watches for token changes',
      }),
    },
    { default: {}, description: 'bearer tokens: the limits of new ones, and how long a read one is trusted' },
  ),
  tasks: Closed(
    {
      expires_seconds: Type.Integer({
        minimum: 1,
        maximum: 2_592_000,
        default: 86_400,
        description:
          'deadline of a task after submission (`/dance/videos` takes `execution_expires_after` from the request)',
      }),
      concurrency: Type.Integer({
        minimum: 1,
        maximum: 1024,
        default: 8,
        description: 'jobs of one family running at a time in a worker process',
      }),
      concurrency_by_family: Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: 1024 }), {
        default: {},
        description: '`tasks.concurrency` for some families, e.g. `{tune: 2, clip: 4}`',
      }),
      lease_seconds: Type.Integer({
        minimum: 2,
        maximum: 3600,
        default: 30,
        description:
          "how long a worker holds a job without renewing it: how soon a dead worker's jobs run elsewhere",
      }),
      poll_ms: Type.Integer({
        minimum: 10,
        maximum: 60_000,
        default: 500,
        description:
          'how often idle workers look for queued jobs (a submission in the same process wakes them at once)',
      }),
    },
    { default: {}, description: 'the durable tasks of the generation families and their workers (tasks.md)' },
  ),
  callbacks: Closed(
    {
      timeout_ms: Type.Integer({
        minimum: 100,
        maximum: 120_000,
        default: 15_000,
        description: 'time a `callback_url` has to answer 2xx before the delivery counts as failed',
      }),
      backoff_seconds: Type.Array(Type.Number({ exclusiveMinimum: 0 }), {
        minItems: 0,
        default: [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800],
        description: 'wait before each retry (±20 % jitter); its length is the number of retries',
      }),
      concurrency: Type.Integer({
        minimum: 1,
        maximum: 1024,
        default: 16,
        description: 'deliveries sent at a time by one process',
      }),
      poll_ms: Type.Integer({
        minimum: 10,
        maximum: 60_000,
        default: 500,
        description: 'how often idle senders look for deliveries that are due',
      }),
    },
    { default: {}, description: 'the signed webhooks sent when a task ends (tasks.md)' },
  ),
  redis: Closed(
    {
      url: Type.Optional(
        PatternString('^rediss?://', 'must be a redis:// or rediss:// URL', {
          description:
            'when set: the task queue (BullMQ), rate limits and task events live in Redis (deployment.md)',
        }),
      ),
      prefix: PatternString('^[A-Za-z0-9_.-]{1,64}$', 'must be 1 to 64 letters, digits, _ . or -', {
        default: 'switchyard',
        description: 'keeps deployments that share one Redis apart',
      }),
    },
    { default: {}, description: 'the distributed mode: several API nodes and workers (deployment.md)' },
  ),
  workers: Closed(
    {
      embedded: Type.Boolean({
        default: true,
        description:
          'run task workers in the `serve` process; `false` for API-only nodes (needs `redis.url`)',
      }),
    },
    { default: {}, description: 'where task workers run' },
  ),
  blobs: Closed(
    {
      dir: Type.Optional(
        Type.String({
          minLength: 1,
          'x-default': '`{data_dir}/blobs`',
          description: 'where produced files are stored (without `blobs.s3`)',
        }),
      ),
      s3: Type.Optional(
        Closed(
          {
            bucket: Type.String({ minLength: 3, maxLength: 63, description: 'the bucket' }),
            region: Type.String({ minLength: 1, default: 'us-east-1', description: 'its region' }),
            endpoint: Type.Optional(
              PatternString('^https?://', 'must be an http(s) URL', {
                'x-default': "AWS's endpoint for the region",
                description: 'the address of another S3-compatible store (MinIO, Ceph, R2, …)',
              }),
            ),
            access_key_id: Type.Optional(
              Type.String({
                minLength: 1,
                'x-default': "the AWS SDK's default chain",
                description: 'with `secret_access_key`: the credentials',
              }),
            ),
            secret_access_key: Type.Optional(
              Type.String({
                minLength: 1,
                'x-default': "the AWS SDK's default chain",
                description: 'with `access_key_id`: the credentials',
              }),
            ),
            force_path_style: Type.Boolean({
              default: false,
              description:
                'address the bucket in the path rather than the host name (most self-hosted stores)',
            }),
            files: StringEnum(['proxy', 'redirect'] as const, {
              default: 'proxy',
              description:
                '`/files/` streams the object (`proxy`) or redirects to a presigned URL (`redirect`)',
            }),
            presign_seconds: Type.Integer({
              minimum: 1,
              maximum: 604_800,
              default: 900,
              description: 'how long a presigned URL stays valid (`redirect`)',
            }),
          },
          { description: 'an S3-compatible store instead of `blobs.dir` (storage.md)' },
        ),
      ),
      retention_days: Type.Number({
        minimum: 0,
        default: 30,
        description: 'produced files older than this are removed (hourly); `0` keeps them',
      }),
    },
    { default: {}, description: 'produced files (storage.md)' },
  ),
  retention: Closed(
    {
      days: Type.Number({
        minimum: 0,
        default: 90,
        description:
          'the request log (usage rows) and ended tasks older than this are removed (every five minutes, once rolled up into daily usage); the ledger and the audit are kept; `0` keeps everything',
      }),
    },
    { default: {}, description: 'how long request records are kept (admin.md)' },
  ),
  log: Closed(
    {
      level: StringEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
        default: 'info',
        description: 'the least severe log lines written (JSON lines on standard output)',
      }),
    },
    { default: {}, description: 'the log (operations.md)' },
  ),
  channels: Type.Array(Channel, {
    default: [],
    description:
      'upstream channels and local models serving the families: chat (chat.md, local-llm.md), search (search.md), video (video.md), identity (identity.md)',
  }),
  search: SearchSection,
  music: MusicSection,
  video: VideoSection,
  identity: IdentitySection,
  routing: Closed(
    {
      retries: Type.Integer({
        minimum: 0,
        maximum: 10,
        default: 2,
        description: 'retries per channel on 429, 5xx, network errors and timeouts',
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
      cooldown_seconds: Type.Number({
        minimum: 0,
        maximum: 3600,
        default: 30,
        description: 'how long a cooled channel waits behind the others',
      }),
    },
    { default: {}, description: 'how requests travel among channels (chat.md)' },
  ),
  health: Closed(
    {
      probe_interval_seconds: Type.Number({
        minimum: 0.05,
        maximum: 86_400,
        default: 60,
        description:
          "how often each upstream channel is probed with a cheap request of its capability, never billed to anyone; a channel's own `probe_interval_seconds` replaces it",
      }),
      recheck_seconds: Type.Number({
        minimum: 0.05,
        maximum: 3600,
        default: 10,
        description: 'how often a cooling or automatically disabled channel is probed instead',
      }),
      disable_after: Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 3,
        description:
          'consecutive failed probes (5xx, timeouts, network) that disable a channel until a probe succeeds',
      }),
      probe_timeout_ms: Type.Integer({
        minimum: 50,
        maximum: 60_000,
        default: 5000,
        description: 'time a probe has to be answered before it counts as failed',
      }),
      account_fault_tokens: Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 3,
        description:
          "different client tokens whose calls must find a channel's key refused or its quota spent, within `account_fault_window_seconds`, before calls alone disable it; fewer have it probed soon, and a probe that finds the same disables it at once",
      }),
      account_fault_window_seconds: Type.Number({
        minimum: 1,
        maximum: 86_400,
        default: 300,
        description:
          "how long a call that found a channel's account at fault counts toward `account_fault_tokens`",
      }),
    },
    { default: {}, description: 'channel probes and automatic disabling (channels.md)' },
  ),
  alerts: Closed(
    {
      webhook_url: Type.Optional(
        PatternString('^https?://', 'must be an http(s) URL', {
          description:
            "where the operator's alerts are POSTed (channel state changes, low balances); none when absent",
        }),
      ),
      webhook_secret: Type.Optional(
        PatternString(
          '^whsec_[A-Za-z0-9+/=]{24,}$',
          'must be whsec_ followed by base64 of at least 18 bytes',
          {
            description:
              'the Standard Webhooks secret the alerts are signed with; required with `webhook_url`',
          },
        ),
      ),
      low_balance_credits: Type.Optional(
        Type.Integer({
          minimum: 0,
          description:
            'an account whose balance falls under this many credits raises one alert (again only after it rose back to it or above), unless the account sets its own `low_balance`; none when absent',
        }),
      ),
      balance_check_seconds: Type.Number({
        minimum: 0.05,
        maximum: 86_400,
        default: 60,
        description: 'how often balances are compared with `low_balance_credits`',
      }),
    },
    { default: {}, description: "the operator's alert webhook (channels.md)" },
  ),
  billing: Closed(
    {
      time_zone: Type.String({
        minLength: 1,
        default: 'UTC',
        description:
          'the IANA time zone whose midnights start and end the budget windows (a day, a week from Monday, a month)',
      }),
    },
    { default: {}, description: 'how budgets count time (admin.md, Accounts and budgets)' },
  ),
  prices: Type.Record(Type.String(), Price, {
    default: {},
    description:
      'credits per request, by operation key (see Prices below); these replace the defaults one by one',
  }),
});

export type ConfigInput = Static<typeof ConfigSchema>;
export type Price = Static<typeof Price>;
