/**
 * The admin API under `/admin/api/v1`: a table of routes, each with its schemas, summary and an
 * example answer, from which the Fastify routes are registered and the OpenAPI document (tag
 * `admin`) is written. Every route takes an admin token; a client token is refused 403
 * `forbidden`. Bad input is a 400 naming each field, as on the operations.
 */
import type { Actor } from './audit.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { checkSchema } from '../contract/validate.js';
import { badRequest, ServiceError } from '../errors.js';
import { isOperator, type Token, type Tokens } from '../accounts/tokens.js';
import type { Admin } from './index.js';
import {
  AccountPatchBody,
  CodesQuery,
  NewAccountBody,
  CreditsBody,
  IdentityPatchBody,
  LedgerQuery,
  NewCodesBody,
  NewIdentityBody,
  NewTokenBody,
  NoBody,
  PageQuery,
  RequestQuerySchema,
  TaskQuerySchema,
  TokenListQuery,
  TokenPatchBody,
  UsageQuerySchema,
} from './schemas.js';
import type { Group } from './usage-report.js';
import type { StatusFilter } from './request-log.js';
import type { TaskState } from '../tasks/states.js';
import { expiryOf, invalid, timeOf } from './values.js';
import { EXAMPLES } from './examples.js';

export const ADMIN_BASE = '/admin/api/v1';

type Strings = Record<string, string | undefined>;

interface Context {
  admin: Admin;
  actor: Actor;
  params: Strings;
  query: Strings;
  body: Record<string, unknown>;
  reply: FastifyReply;
}

export interface AdminRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Under ADMIN_BASE, Fastify's `:param` syntax. */
  url: string;
  summary: string;
  query?: TSchema;
  body?: TSchema;
  /** The example answer in the OpenAPI document (and docs/admin.md). */
  example: keyof typeof EXAMPLES;
  handle(context: Context): Promise<unknown>;
}

const limitOf = (query: Strings) => (query.limit === undefined ? 50 : Number(query.limit));
const page = (query: Strings) => ({
  limit: limitOf(query),
  ...(query.before !== undefined ? { before: query.before } : {}),
});
const groupsOf = (text: string | undefined): Group[] =>
  [...new Set((text ?? 'token,operation').split(','))] as Group[];
const defined = <T extends Record<string, unknown>>(object: T) =>
  Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;

function portraitOf(text: unknown): Buffer | null | undefined {
  if (text === undefined || text === null) return text as null | undefined;
  const bytes = Buffer.from(String(text), 'base64');
  const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  if (!png && !jpeg) throw invalid('portrait', 'must be a PNG or JPEG image in base64');
  return bytes;
}

/** Budgets name each period once: two day windows would be one, the smaller. */
function checkBudgets(body: Record<string, unknown>): void {
  const budgets = body.budgets as { period: string }[] | null | undefined;
  const periods = (budgets ?? []).map((b) => b.period);
  if (new Set(periods).size !== periods.length) throw invalid('budgets', 'must name each period once');
}

export const ADMIN_ROUTES: readonly AdminRoute[] = [
  {
    method: 'GET',
    url: '/accounts',
    summary: 'List accounts, newest first, with balances, budget windows and tokens',
    query: TokenListQuery,
    example: 'accountPage',
    handle: ({ admin, query }) => admin.accounts.list({ ...page(query), ...defined({ q: query.q }) }),
  },
  {
    method: 'POST',
    url: '/accounts',
    summary: 'Create an account (a customer): its balance, budgets and low-balance line',
    body: NewAccountBody,
    example: 'account',
    handle: async ({ admin, actor, body, reply }) => {
      checkBudgets(body);
      reply.code(201);
      return admin.accounts.create(body as never, actor);
    },
  },
  {
    method: 'GET',
    url: '/accounts/:name',
    summary: 'An account, by name or id',
    example: 'account',
    handle: ({ admin, params }) => admin.accounts.get(params.name as string),
  },
  {
    method: 'PATCH',
    url: '/accounts/:name',
    summary: 'Change budgets, the low-balance line or unlimited',
    body: AccountPatchBody,
    example: 'account',
    handle: ({ admin, actor, params, body }) => {
      checkBudgets(body);
      return admin.accounts.update(params.name as string, body, actor);
    },
  },
  {
    method: 'POST',
    url: '/accounts/:name/credits',
    summary:
      "Top up (delta > 0) or deduct (delta < 0, never below zero: 409) the account's balance, with a note",
    body: CreditsBody,
    example: 'credits',
    handle: ({ admin, actor, params, body }) => {
      if (body.delta === 0) throw invalid('delta', 'must not be 0');
      return admin.accounts.credit(
        params.name as string,
        body.delta as number,
        body.note as string | undefined,
        actor,
      );
    },
  },
  {
    method: 'GET',
    url: '/tokens',
    summary: 'List tokens, newest first (never their secrets)',
    query: TokenListQuery,
    example: 'tokenPage',
    handle: ({ admin, query }) => admin.tokens.list({ ...page(query), ...defined({ q: query.q }) }),
  },
  {
    method: 'POST',
    url: '/tokens',
    summary: 'Create a token; its secret and callback secret are in this answer only',
    body: NewTokenBody,
    example: 'createdToken',
    handle: async ({ admin, actor, body, reply }) => {
      checkBudgets(body);
      reply.code(201);
      return admin.tokens.create(body as never, actor);
    },
  },
  {
    method: 'GET',
    url: '/tokens/:name',
    summary: 'A token, by name (of a live token) or id',
    example: 'token',
    handle: ({ admin, params }) => admin.tokens.get(params.name as string),
  },
  {
    method: 'PATCH',
    url: '/tokens/:name',
    summary: 'Change operations, limits, expiry, unlimited or disabled',
    body: TokenPatchBody,
    example: 'token',
    handle: ({ admin, actor, params, body }) => {
      checkBudgets(body);
      return admin.tokens.update(params.name as string, body, actor);
    },
  },
  {
    method: 'DELETE',
    url: '/tokens/:name',
    summary: 'Revoke a token (for ever)',
    example: 'revokedToken',
    handle: ({ admin, actor, params }) => admin.tokens.revoke(params.name as string, actor),
  },
  {
    method: 'POST',
    url: '/tokens/:name/rotate-secret',
    summary: 'A new callback signing secret (in this answer only)',
    body: NoBody,
    example: 'rotatedSecret',
    handle: ({ admin, actor, params }) => admin.tokens.rotateSecret(params.name as string, actor),
  },
  {
    method: 'POST',
    url: '/tokens/:name/regenerate',
    summary: 'A new bearer secret for the same token (in this answer only); the old one is refused at once',
    body: NoBody,
    example: 'regenerated',
    handle: ({ admin, actor, params }) => admin.tokens.regenerate(params.name as string, actor),
  },
  {
    method: 'POST',
    url: '/tokens/:name/credits',
    summary: 'Top up (delta > 0) or deduct (delta < 0, never below zero: 409) with a note',
    body: CreditsBody,
    example: 'credits',
    handle: ({ admin, actor, params, body }) => {
      if (body.delta === 0) throw invalid('delta', 'must not be 0');
      return admin.tokens.credit(
        params.name as string,
        body.delta as number,
        body.note as string | undefined,
        actor,
      );
    },
  },
  {
    method: 'GET',
    url: '/usage',
    summary: 'Usage grouped by token, operation, model and day; format=csv for CSV',
    query: UsageQuerySchema,
    example: 'usage',
    handle: async ({ admin, query, reply }) => {
      const groupBy = groupsOf(query.group_by);
      const filter = {
        groupBy,
        ...defined({
          from: timeOf('from', query.from),
          to: timeOf('to', query.to),
          token: query.token,
          operation: query.operation,
        }),
      };
      if (query.format !== 'csv') return { rows: await admin.usage(filter) };
      const csv = await admin.usageCsv(filter);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="usage.csv"')
        .send(csv);
    },
  },
  {
    method: 'GET',
    url: '/requests',
    summary: 'The request log, newest first',
    query: RequestQuerySchema,
    example: 'requests',
    handle: ({ admin, query }) =>
      admin.requests({
        ...page(query),
        ...defined({
          token: query.token,
          operation: query.operation,
          status:
            query.status === undefined
              ? undefined
              : /^\d+$/.test(query.status)
                ? Number(query.status)
                : (query.status as StatusFilter),
        }),
      }),
  },
  {
    method: 'GET',
    url: '/ledger',
    summary: 'Credit ledger entries, newest first',
    query: LedgerQuery,
    example: 'ledger',
    handle: ({ admin, query }) =>
      admin.ledger({ ...page(query), ...defined({ token: query.token, account: query.account }) }),
  },
  {
    method: 'GET',
    url: '/tasks',
    summary: 'Tasks, newest first, with state and progress',
    query: TaskQuerySchema,
    example: 'tasks',
    handle: ({ admin, query }) =>
      admin.taskList({
        ...page(query),
        ...defined({ state: query.state as TaskState | undefined, family: query.family, token: query.token }),
      }),
  },
  {
    method: 'GET',
    url: '/tasks/:id',
    summary: 'One task',
    example: 'task',
    handle: ({ admin, params }) => admin.tasks.get(params.id as string),
  },
  {
    method: 'POST',
    url: '/tasks/:id/redeliver',
    summary: "Send an ended task's callback again",
    body: NoBody,
    example: 'task',
    handle: ({ admin, actor, params }) => admin.tasks.redeliver(params.id as string, actor),
  },
  {
    method: 'POST',
    url: '/tasks/:id/cancel',
    summary: 'Cancel a task not yet ended: failed with `cancelled`, refunded, called back',
    body: NoBody,
    example: 'cancelledTask',
    handle: ({ admin, actor, params }) => admin.tasks.cancel(params.id as string, actor),
  },
  {
    method: 'GET',
    url: '/identities',
    summary: 'The identity registry, names and numbers masked',
    example: 'identities',
    handle: async ({ admin }) => ({ rows: await admin.identities.list(), next: null }),
  },
  {
    method: 'POST',
    url: '/identities',
    summary: 'Enroll an identity',
    body: NewIdentityBody,
    example: 'identity',
    handle: async ({ admin, actor, body, reply }) => {
      const portrait = portraitOf(body.portrait);
      reply.code(201);
      return admin.identities.enroll(
        {
          name: body.name as string,
          id_number: String(body.id_number).toUpperCase(),
          ...(portrait ? { portrait } : {}),
        },
        actor,
      );
    },
  },
  {
    method: 'PATCH',
    url: '/identities/:id',
    summary: "Change an identity's name or portrait (null removes it)",
    body: IdentityPatchBody,
    example: 'identity',
    handle: ({ admin, actor, params, body }) =>
      admin.identities.update(
        params.id as string,
        defined({ name: body.name as string | undefined, portrait: portraitOf(body.portrait) }),
        actor,
      ),
  },
  {
    method: 'DELETE',
    url: '/identities/:id',
    summary: 'Remove an identity',
    example: 'removedIdentity',
    handle: ({ admin, actor, params }) => admin.identities.remove(params.id as string, actor),
  },
  {
    method: 'GET',
    url: '/channels',
    summary: 'Every channel of every capability (local engines as kind `local`), never a key',
    example: 'channels',
    handle: async ({ admin }) => ({ rows: await admin.channels.list(), next: null }),
  },
  ...(['disable', 'enable', 'probe'] as const).map((action): AdminRoute => ({
    method: 'POST',
    url: `/channels/:id/${action}`,
    summary: {
      disable: 'Disable a channel: routers skip it; a family with no channel left answers 503',
      enable: 'Enable a disabled channel',
      probe:
        "Probe a channel now (an upstream gets its scheduled probe's cheap request, with its key; an engine is checked in process)",
    }[action],
    body: NoBody,
    example: 'channel',
    handle: ({ admin, actor, params }) => admin.channels[action](params.id as string, actor),
  })),
  {
    method: 'GET',
    url: '/overview',
    summary: 'The last 24 hours: requests, errors and credits by hour; tasks and channels by state',
    example: 'overview',
    handle: ({ admin }) => admin.overview(),
  },
  {
    method: 'POST',
    url: '/codes',
    summary: 'Make a batch of redemption codes; the codes are in this answer only',
    body: NewCodesBody,
    example: 'createdCodes',
    handle: async ({ admin, actor, body, reply }) => {
      const expiresAt = expiryOf(body.expires_at as string | null | undefined);
      if (expiresAt !== null && expiresAt !== undefined && expiresAt <= Date.now())
        throw invalid('expires_at', 'must be in the future');
      reply.code(201);
      return admin.codes.create(
        {
          credits: body.credits as number,
          count: body.count as number,
          uses: (body.uses as number | undefined) ?? 1,
          expiresAt: expiresAt ?? null,
          note: (body.note as string | undefined) ?? null,
        },
        actor,
      );
    },
  },
  {
    method: 'GET',
    url: '/codes',
    summary: 'The batches of redemption codes, newest first, with the uses taken of each',
    query: CodesQuery,
    example: 'codeBatches',
    handle: ({ admin, query }) => admin.codes.list(query.batch),
  },
  {
    method: 'DELETE',
    url: '/codes/:batch',
    summary: 'Disable what is left of a batch: its codes are refused from now on',
    example: 'codeBatch',
    handle: ({ admin, actor, params }) => admin.codes.disable(params.batch as string, actor),
  },
  {
    method: 'GET',
    url: '/audit',
    summary: 'Admin actions, newest first: who, what, when',
    query: PageQuery,
    example: 'audit',
    handle: ({ admin, query }) => admin.audit(page(query)),
  },
  {
    method: 'GET',
    url: '/settings',
    summary: 'The price table and the local engines’ settings, read-only (never a key)',
    example: 'settings',
    handle: async ({ admin }) => admin.settings(),
  },
];

function check(schema: TSchema | undefined, value: unknown, prefix: string): void {
  if (!schema) return;
  const violations = checkSchema(schema, value ?? {}, prefix);
  if (violations.length > 0) throw badRequest(violations);
}

/** The admin token behind a request, or the 401/403 that says why not. */
export async function adminOf(tokens: Tokens, request: FastifyRequest): Promise<Token> {
  // A request with an Authorization header is judged by it alone; else by its console session.
  const token =
    request.headers.authorization === undefined && request.consoleToken !== null
      ? await tokens.authenticateHash(request.consoleToken)
      : await tokens.authenticate(request.headers.authorization);
  if (!isOperator(token.role))
    throw new ServiceError(
      'forbidden',
      'a client token calls operations only; /admin/api/v1 takes an admin token',
    );
  return token;
}

export function registerAdmin(app: FastifyInstance, tokens: Tokens, admin: Admin): void {
  for (const route of ADMIN_ROUTES) {
    app.route({
      method: route.method,
      url: `${ADMIN_BASE}${route.url}`,
      handler: async (request, reply) => {
        const token = await adminOf(tokens, request);
        // A viewer reads everything an admin reads, and changes nothing.
        if (token.role === 'viewer' && route.method !== 'GET')
          throw new ServiceError('forbidden', 'a viewer token reads /admin/api/v1; it changes nothing');
        const query = (request.query ?? {}) as Strings;
        check(route.query, query, '');
        const body = request.body === undefined || request.body === null ? {} : request.body;
        if (typeof body !== 'object' || Array.isArray(body)) throw invalid('body', 'must be a JSON object');
        if (!route.query && Object.keys(query).length > 0) {
          const name = Object.keys(query)[0] as string;
          throw invalid(name, 'is not a parameter of this route');
        }
        check(route.body, body, '');
        return route.handle({
          admin,
          actor: { name: token.name, id: token.id },
          params: request.params as Strings,
          query,
          body: body as Record<string, unknown>,
          reply,
        });
      },
    });
  }
}
