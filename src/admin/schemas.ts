/**
 * The admin API's request schemas (TypeBox, checked by the operations' validator, so errors name
 * the field and the rule the same way). Query members arrive as strings; their patterns say what
 * each must look like, and the routes read them into numbers and lists.
 */
import { Type, Closed, StringEnum, PatternString, Nullable } from '../contract/schema.js';
import { FAMILIES } from '../config/channels.js';
import { GROUPS } from './usage-report.js';

const Time = (what: string) =>
  Type.String({ minLength: 1, description: `${what}: ISO 8601 time or unix seconds` });

const Limit = PatternString('^(500|[1-4][0-9]{2}|[1-9][0-9]?)$', 'must be a whole number from 1 to 500', {
  description: 'rows per page (default 50, at most 500)',
});

const Before = Type.String({ minLength: 1, description: 'the `next` cursor of the previous page' });
const TokenName = Type.String({ minLength: 1, description: 'a token, by name or id' });
const Operation = Type.String({ minLength: 1, description: 'a price key (`serp.web`) or an operation path' });

export const PageQuery = Closed({ before: Type.Optional(Before), limit: Type.Optional(Limit) });

export const TokenListQuery = Closed({
  before: Type.Optional(Before),
  limit: Type.Optional(Limit),
  q: Type.Optional(Type.String({ maxLength: 100, description: 'part of the name' })),
});

const Operations = Nullable(
  Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    description: 'operation paths or family names (`serp`, `/chatmodel/chat/completions`); null for all',
  }),
);
const Rate = Nullable(
  Type.Number({
    exclusiveMinimum: 0,
    maximum: 1_000_000,
    description: 'requests per second; null for unlimited',
  }),
);
const Concurrency = Nullable(
  Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'requests at a time; null for unlimited' }),
);
const Expiry = Nullable(Type.String({ minLength: 1, description: 'ISO 8601 time; null for never' }));

const Budgets = Type.Array(
  Closed({
    credits: Type.Integer({ minimum: 1, maximum: 1e15, description: 'credits the window allows' }),
    period: StringEnum(['day', 'week', 'month'] as const, {
      description: 'a calendar day, week (from Monday) or month, in `billing.time_zone`',
    }),
  }),
  { maxItems: 3, description: 'spending windows, at most one per period (e.g. 100 a day and 2,000 a month)' },
);

const LowBalance = Nullable(
  Type.Integer({
    minimum: 0,
    maximum: 1e15,
    description: 'an alert is raised when the balance falls under this; null: `alerts.low_balance_credits`',
  }),
);

const AccountName = PatternString('^[A-Za-z0-9_.@-]{1,64}$', 'must be 1 to 64 letters, digits, _ . @ or -', {
  description: 'unique among accounts',
});

export const NewAccountBody = Closed({
  name: AccountName,
  credits: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1e15, description: 'opening balance (default 0)' }),
  ),
  unlimited: Type.Optional(
    Type.Boolean({ description: 'no balance: only budgets limit it (default false)' }),
  ),
  budgets: Type.Optional(Budgets),
  low_balance: Type.Optional(LowBalance),
});

export const AccountPatchBody = Closed(
  {
    budgets: Type.Optional(Nullable(Budgets)),
    low_balance: Type.Optional(LowBalance),
    unlimited: Type.Optional(Type.Boolean({ description: 'true: no balance; false: a balance from 0' })),
  },
  { minProperties: 1 },
);

export const NewTokenBody = Closed({
  name: PatternString('^[A-Za-z0-9_.@-]{1,64}$', 'must be 1 to 64 letters, digits, _ . @ or -', {
    description: 'unique among live tokens',
  }),
  role: Type.Optional(
    StringEnum(['client', 'admin', 'viewer'] as const, {
      description: 'default `client`; `viewer` reads the admin API and changes nothing',
    }),
  ),
  account: Type.Optional(
    Type.String({ minLength: 1, description: 'an account, by name or id; default: an account of its own' }),
  ),
  credits: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 1e15,
        description: "its own account's balance; null (default) for unlimited; not with `account`",
      }),
    ),
  ),
  budgets: Type.Optional(Budgets),
  operations: Type.Optional(Operations),
  expires_at: Type.Optional(Expiry),
  rate_per_second: Type.Optional(Rate),
  concurrency: Type.Optional(Concurrency),
});

export const TokenPatchBody = Closed(
  {
    operations: Type.Optional(Operations),
    rate_per_second: Type.Optional(Rate),
    concurrency: Type.Optional(Concurrency),
    expires_at: Type.Optional(Expiry),
    budgets: Type.Optional(Nullable(Budgets)),
    unlimited: Type.Optional(
      Type.Boolean({ description: "its account's: true: no balance; false: a balance from 0" }),
    ),
    disabled: Type.Optional(Type.Boolean({ description: 'a disabled token is refused (401) until enabled' })),
  },
  { minProperties: 1 },
);

export const NewCodesBody = Closed({
  credits: Type.Integer({ minimum: 1, maximum: 1e12, description: 'credits each use of a code adds' }),
  count: Type.Integer({ minimum: 1, maximum: 10_000, description: 'codes in the batch' }),
  uses: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'uses per code; default 1' }),
  ),
  expires_at: Type.Optional(Expiry),
  note: Type.Optional(Type.String({ maxLength: 200, description: 'for the operator: an order, a campaign' })),
});

export const RedeemBody = Closed({
  code: Type.String({ minLength: 1, maxLength: 100, description: 'a redemption code, as given' }),
});

export const CodesQuery = Closed({
  batch: Type.Optional(Type.String({ minLength: 1, description: 'one batch, by its id' })),
});

export const CreditsBody = Closed({
  delta: Type.Integer({
    minimum: -1e15,
    maximum: 1e15,
    description: 'credits to add (a top-up) or, negative, to take (never below zero)',
  }),
  note: Type.Optional(Type.String({ maxLength: 500, description: 'kept in the ledger entry' })),
});

/** Actions with nothing to say: no body, or an empty object. */
export const NoBody = Closed({});

export const UsageQuerySchema = Closed({
  from: Type.Optional(Time('from')),
  to: Type.Optional(Time('to (excluded)')),
  token: Type.Optional(TokenName),
  operation: Type.Optional(Operation),
  group_by: Type.Optional(
    PatternString(
      `^(${GROUPS.join('|')})(,(${GROUPS.join('|')}))*$`,
      `must be a comma-separated list of ${GROUPS.join(', ')}`,
      {
        description: 'default `token,operation`',
      },
    ),
  ),
  format: Type.Optional(StringEnum(['json', 'csv'] as const, { description: 'csv: the same rows as CSV' })),
});

export const AccountUsageQuery = Closed({
  from: Type.Optional(Time('from')),
  to: Type.Optional(Time('to (excluded)')),
  group_by: Type.Optional(UsageQuerySchema.properties.group_by),
});

export const RequestQuerySchema = Closed({
  token: Type.Optional(TokenName),
  operation: Type.Optional(Operation),
  status: Type.Optional(
    PatternString('^([1-5][0-9]{2}|[1-5]xx)$', 'must be an HTTP status (`403`) or a class (`4xx`)', {
      description: 'an HTTP status or a class of them',
    }),
  ),
  before: Type.Optional(Before),
  limit: Type.Optional(Limit),
});

export const LedgerQuery = Closed({
  token: Type.Optional(TokenName),
  account: Type.Optional(Type.String({ minLength: 1, description: 'an account, by name or id' })),
  before: Type.Optional(Before),
  limit: Type.Optional(Limit),
});

export const TaskQuerySchema = Closed({
  state: Type.Optional(StringEnum(['queued', 'running', 'succeeded', 'failed', 'expired'] as const)),
  family: Type.Optional(StringEnum(FAMILIES)),
  token: Type.Optional(TokenName),
  before: Type.Optional(Before),
  limit: Type.Optional(Limit),
});

const Portrait = Type.String({
  minLength: 1,
  maxLength: 10_000_000,
  description: 'the reference portrait, PNG or JPEG in base64',
});

export const NewIdentityBody = Closed({
  name: Type.String({ minLength: 1, maxLength: 64, description: 'the name on the card' }),
  id_number: PatternString('^[0-9]{17}[0-9Xx]$', 'must be 17 digits and a digit or X', {
    description: 'the 18-character ID number',
  }),
  portrait: Type.Optional(Portrait),
});

export const IdentityPatchBody = Closed(
  { name: Type.Optional(NewIdentityBody.properties.name), portrait: Type.Optional(Nullable(Portrait)) },
  { minProperties: 1 },
);
