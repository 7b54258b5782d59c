/** Example answers of the admin API, for its OpenAPI document. */

const token = {
  id: '3f1c2a9e-4b7d-4e51-9a0c-6d2b8e7f1a34',
  name: 'acme',
  role: 'client',
  operations: ['/serp/web', '/chatmodel/chat/completions'],
  rate_per_second: 20,
  concurrency: 8,
  expires_at: '2027-01-01T00:00:00.000Z',
  account: 'acme-corp',
  unlimited: false,
  balance: 4500,
  budgets: [{ period: 'day', credits: 100, used: 40, remaining: 60, resets_at: '2026-11-27T00:00:00.000Z' }],
  spent: 500,
  last_used_at: '2026-11-26T09:14:03.512Z',
  disabled: false,
  revoked_at: null,
  created_at: '2026-11-01T08:00:00.000Z',
};

const request = {
  trace_id: '6b1c0f4e-2d7a-4c1b-8e3f-5a9d7c2b1e60',
  at: '2026-11-26T09:14:03.512Z',
  token: 'acme',
  operation: 'serp.web',
  model: null,
  status: 200,
  success: true,
  credits: 1,
  quote: null,
  latency_ms: 42.7,
  error_code: null,
  task_id: null,
};

const account = {
  id: '7a0d3c1e-5f2b-4c8d-9e6a-1b3c5d7e9f02',
  name: 'acme-corp',
  unlimited: false,
  balance: 4500,
  low_balance: 1000,
  budgets: [
    { period: 'day', credits: 500, used: 120, remaining: 380, resets_at: '2026-11-27T00:00:00.000Z' },
    { period: 'month', credits: 10000, used: 5500, remaining: 4500, resets_at: '2026-12-01T00:00:00.000Z' },
  ],
  tokens: [{ id: '3f1c2a9e-4b7d-4e51-9a0c-6d2b8e7f1a34', name: 'acme', revoked: false }],
  created_at: '2026-11-01T08:00:00.000Z',
};

const task = {
  id: '9d2e7c41-0b5a-4f3e-8c6d-2a1b7e9f4c35',
  trace_id: 'a3c5e7f9-1b2d-4f6a-8c0e-2d4f6a8c0e1b',
  token: 'acme',
  family: 'tune',
  operation: 'tune.audios',
  model: 'tune-v5',
  action: 'generate',
  state: 'running',
  progress: { fraction: 0.4, stage: 'render' },
  credits: 10,
  quote: { credits: 10, basis: '10 per request' },
  created_at: '2026-11-26T09:10:00.000Z',
  started_at: '2026-11-26T09:10:00.120Z',
  finished_at: null,
  error: null,
  callback: { url: 'https://example.com/hook', state: 'waiting', attempts: 0, last_status: null },
};

/** One task: its row, the request as kept (secrets removed) and, once ended, its final envelope. */
const taskDetail = {
  ...task,
  request: {
    action: 'generate',
    prompt: 'a song about rain',
    model: 'tune-v5',
    callback_url: 'https://example.com/hook',
  },
  response: null,
};

const channel = {
  id: 'openai-main',
  capability: 'chat',
  kind: 'openai-compatible',
  type: 'openai-compatible',
  base_url: 'https://api.openai.com/v1',
  priority: 1,
  weight: 1,
  models: ['chatmodel-*'],
  state: 'ok',
  disabled_by: null,
  auto_reason: null,
  last_probe: { at: '2026-11-26T09:00:00.000Z', ok: true, latency_ms: 81.2, detail: 'HTTP 404' },
  calls: 1200,
  success_rate: 0.998,
  p50_ms: 640.5,
};

const identity = {
  id: '5e8f0a2c4b6d8e0f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f',
  name: '张*',
  id_number: '1101**********1234',
  portrait: true,
  enrolled_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};

/** A batch of redemption codes as the admin API lists it. */
const codeBatch = {
  batch: '0mi2x9k4s0000b1c2d3e4f5a6',
  credits: 500,
  count: 2,
  uses_per_code: 1,
  used: 1,
  expires_at: '2026-12-31T00:00:00.000Z',
  note: 'launch week',
  created_by: 'ops',
  created_at: '2026-11-26T09:00:00.000Z',
  disabled_at: null,
};

export const EXAMPLES = {
  account,
  accountPage: { rows: [account], next: null },
  token,
  tokenPage: { rows: [token], next: null },
  createdToken: {
    ...token,
    balance: 5000,
    spent: 0,
    last_used_at: null,
    token: 'sy_Q2h…',
    webhook_secret: 'whsec_…',
  },
  revokedToken: { ...token, revoked_at: '2026-11-26T10:00:00.000Z' },
  rotatedSecret: { id: token.id, name: token.name, webhook_secret: 'whsec_…' },
  regenerated: { id: token.id, name: token.name, token: 'sy_…' },
  credits: { id: token.id, name: token.name, balance: 5000, delta: 500 },
  usage: {
    rows: [
      {
        token: 'acme',
        operation: 'serp.web',
        day: '2026-11-26',
        requests: 1520,
        succeeded: 1514,
        failed: 6,
        credits: 1514,
        p50_ms: 41.1,
        p95_ms: 88.6,
      },
    ],
  },
  requests: {
    rows: [request, { ...request, status: 403, success: false, credits: 0, error_code: 'used_up' }],
    next: 'WyIwMG…Il0',
  },
  ledger: {
    rows: [
      {
        id: '0mi2x9k4s0000a1b2c3d4e5f6',
        at: '2026-11-26T09:00:00.000Z',
        account: 'acme-corp',
        token: null,
        kind: 'topup',
        delta: 500,
        balance_after: 5000,
        note: 'invoice 42',
        actor: 'ops',
        trace_id: null,
      },
      {
        id: '0mi2x8j1r0000a1b2c3d4e5f6',
        at: '2026-11-26T08:59:00.000Z',
        account: 'acme-corp',
        token: 'acme',
        kind: 'charge',
        delta: -1,
        balance_after: 4500,
        note: null,
        actor: 'system',
        trace_id: request.trace_id,
      },
    ],
    next: null,
  },
  tasks: { rows: [task], next: null },
  task: taskDetail,
  cancelledTask: {
    ...taskDetail,
    state: 'failed',
    finished_at: '2026-11-26T09:11:00.000Z',
    error: { code: 'cancelled', message: 'cancelled by ops' },
    callback: { ...task.callback, state: 'pending' },
    response: {
      success: false,
      task_id: task.id,
      trace_id: task.trace_id,
      error: { code: 'cancelled', message: 'cancelled by ops' },
    },
  },
  identities: { rows: [identity], next: null },
  identity,
  removedIdentity: { id: identity.id, removed: true },
  channels: {
    rows: [
      channel,
      {
        ...channel,
        id: 'local:tune',
        capability: 'tune',
        kind: 'local',
        type: 'engine',
        base_url: null,
        models: ['*'],
        last_probe: null,
        calls: 12,
        success_rate: 1,
        p50_ms: 5210,
      },
    ],
    next: null,
  },
  channel: { ...channel, state: 'disabled', disabled_by: 'ops' },
  overview: {
    from: '2026-11-25T10:00:00.000Z',
    to: '2026-11-26T10:00:00.000Z',
    totals: { requests: 35120, errors: 212, credits: 34050 },
    hours: [{ hour: '2026-11-26T09:00:00.000Z', requests: 1520, errors: 6, credits: 1514 }],
    tasks: { queued: 2, running: 3, succeeded: 840, failed: 12, expired: 0 },
    channels: { ok: 5, cooling: 0, disabled: 1, auto_disabled: 0 },
  },
  createdCodes: {
    batch: '0mi2x9k4s0000b1c2d3e4f5a6',
    codes: ['SYC-7KQ2M-XW4RT-9PLNA-H3VZE', 'SYC-C8D5F-2GJ6K-MNB4Q-RT7WY'],
  },
  codeBatches: { rows: [codeBatch], next: null },
  codeBatch: { ...codeBatch, disabled_at: '2026-11-27T09:00:00.000Z' },
  audit: {
    rows: [
      {
        id: '0mi2x9k4s0000a1b2c3d4e5f6',
        at: '2026-11-26T09:00:00.000Z',
        actor: 'ops',
        actor_id: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
        action: 'token.credits',
        target: 'acme',
        detail: { id: token.id, delta: 500, note: 'invoice 42' },
      },
    ],
    next: null,
  },
  settings: {
    prices: { 'serp.web': 1, 'tune.audios': { default: 10, actions: { concat: 2 } } },
    engines: [{ engine: 'video', families: ['clip', 'dance', 'maxi'], settings: { workers: null } }],
  },
} as const;
