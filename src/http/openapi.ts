/**
 * The OpenAPI 3.1 document, generated from the operation table and the admin API's route table:
 * the same schemas that validate requests describe them. Served at `/openapi.json`, with interactive docs at `/docs`.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { ORIGIN_PATHS } from '../compat/origin.js';
import { OPERATIONS, operationAt } from '../contract/table.js';
import { ErrorBody, TaskAccepted } from '../contract/responses.js';
import type { Operation } from '../contract/types.js';
import { ADMIN_BASE, ADMIN_ROUTES, type AdminRoute } from '../admin/routes.js';
import { EXAMPLES } from '../admin/examples.js';
import { AccountUsageQuery, RedeemBody } from '../admin/schemas.js';
import { PREFIXES } from './account.js';

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Malformed JSON or a broken rule; `details` lists every violation',
  '401': 'Missing, unknown, revoked or expired token',
  '403': 'The token may not call this operation, or has too few credits',
  '404': 'Unknown task id (or another token\u2019s)',
  '406': 'An accept value this operation does not answer with',
  '413': 'Body or fetched input over its limit',
  '415': 'A body that is not application/json',
  '429': 'Rate or concurrency limit; see Retry-After',
  '500': 'A fault of the service; quote trace_id',
  '502': 'Upstream providers failed after retries and fallbacks',
  '503': 'No engine or channel can take the request now',
  '504': 'A synchronous wait ran out; the task goes on (task_id)',
};

/** TypeBox schemas carry symbols; the document needs plain JSON. */
function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

function successSchema(operation: Operation): Record<string, unknown> {
  if (operation.kind !== 'task') return plain(operation.response);
  return { anyOf: [plain(operation.response), plain(TaskAccepted)] };
}

function pathItem(operation: Operation) {
  const errorRef = { $ref: '#/components/schemas/Error' };
  return {
    post: {
      operationId: operation.path.slice(1).replace(/[/.-](\w)/g, (_m, c: string) => c.toUpperCase()),
      summary: operation.summary,
      tags: [operation.family],
      requestBody: { required: true, content: { 'application/json': { schema: plain(operation.request) } } },
      responses: {
        '200': {
          description:
            operation.kind === 'task'
              ? 'The final envelope; with callback_url or async, the task id at once'
              : 'The result',
          content: Object.fromEntries(
            operation.accept.map((type) => [type, { schema: successSchema(operation) }]),
          ),
        },
        ...Object.fromEntries(
          Object.entries(ERROR_STATUSES).map(([status, description]) => [
            status,
            { description, content: { 'application/json': { schema: errorRef } } },
          ]),
        ),
      },
    },
  };
}

/**
 * The origin's paths, under their own tag: each documented as the operation it stands for, whose
 * schemas it shares (it also takes what the origin's clients send; compatibility.md).
 */
function originPaths(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ORIGIN_PATHS).map(([path, ours]) => {
      const item = pathItem(operationAt(ours) as Operation);
      const post = {
        ...item.post,
        operationId: `origin${item.post.operationId.replace(/^\w/, (c) => c.toUpperCase())}`,
        summary: `${item.post.summary} (the origin's path for ${ours})`,
        tags: ['origin'],
      };
      return [path, { post }];
    }),
  );
}

const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Query members as OpenAPI parameters, each with its schema. */
function queryParameters(schema: TSchema | undefined) {
  const properties = (schema?.properties ?? {}) as Record<string, TSchema>;
  return Object.entries(properties).map(([name, member]) => ({
    name,
    in: 'query',
    required: false,
    schema: plain(member),
    ...(member.description ? { description: member.description } : {}),
  }));
}

function pathParameters(url: string) {
  return [...url.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: name === 'name' ? 'a token by name (of a live token) or id' : `the ${name}`,
  }));
}

function adminOperation(route: AdminRoute) {
  return {
    operationId: `admin${route.method[0]}${route.method.slice(1).toLowerCase()}${route.url.replace(/[/:-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    tags: ['admin'],
    parameters: [...pathParameters(route.url), ...queryParameters(route.query)],
    ...(route.body
      ? { requestBody: { required: false, content: { 'application/json': { schema: plain(route.body) } } } }
      : {}),
    responses: {
      [route.method === 'POST' && route.example.startsWith('created') ? '201' : '200']: {
        description: 'The answer',
        content: { 'application/json': { schema: {}, example: EXAMPLES[route.example] } },
      },
      '400': errorAnswer('Bad input; `details` names each field and rule'),
      '401': errorAnswer('Missing, unknown, revoked, disabled or expired token'),
      '403': errorAnswer('`forbidden`: a client token'),
      '404': errorAnswer('`not_found`: no such token, task, identity or channel'),
      '409': errorAnswer(
        '`conflict`: a name taken, a balance that would go below zero, a task already ended',
      ),
    },
  };
}

/** The admin API's paths, tag `admin`, and the client's own account and model lists, tag `account`. */
function sidePaths(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ADMIN_ROUTES) {
    const path = `${ADMIN_BASE}${route.url.replace(/:(\w+)/g, '{$1}')}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: adminOperation(route) };
  }
  const account = (summary: string, example: unknown, parameters: unknown[] = []) => ({
    get: {
      summary,
      tags: ['account'],
      parameters,
      responses: {
        '200': { description: 'The answer', content: { 'application/json': { schema: {}, example } } },
        '401': errorAnswer('Missing, unknown, revoked, disabled or expired token'),
        '403': errorAnswer('`forbidden`: an admin token'),
      },
    },
  });
  paths['/v1/account'] = account(
    "The calling token's account balance, budgets, limits and what it spent today",
    {
      name: 'acme',
      account: 'acme-corp',
      balance: 4500,
      unlimited: false,
      budgets: [
        {
          owner: 'account',
          period: 'day',
          credits: 500,
          used: 120,
          remaining: 380,
          resets_at: '2026-11-27T00:00:00.000Z',
        },
      ],
      operations: null,
      rate_per_second: 20,
      concurrency: 8,
      expires_at: null,
      spent_today: 120,
    },
  );
  paths['/v1/account/usage'] = account(
    "The calling token's usage rows (grouped as the admin API's usage)",
    {
      rows: [
        {
          operation: 'serp.web',
          requests: 120,
          succeeded: 120,
          failed: 0,
          credits: 120,
          p50_ms: 41.1,
          p95_ms: 88.6,
        },
      ],
    },
    queryParameters(AccountUsageQuery),
  );
  paths['/v1/pricing'] = account('What each operation costs in credits: the price table by price key', {
    prices: {
      'serp.web': 1,
      'tune.audios': { default: 10, actions: { concat: 2, stems: 5, all_stems: 8 } },
      'dance.videos': { default: 0, per_second: { '480p': 1, '720p': 2, '1080p': 4 } },
      'chat.chatmodel': { default: 0, per_1k: { input: 1, output: 2, cached: 0.25 } },
    },
  });
  paths['/v1/account/redeem'] = {
    post: {
      summary: "Redeem a code onto the balance of the calling token's account",
      tags: ['account'],
      requestBody: { required: true, content: { 'application/json': { schema: plain(RedeemBody) } } },
      responses: {
        '200': {
          description: 'What the code added and the balance after it',
          content: { 'application/json': { schema: {}, example: { credits: 500, balance: 5000 } } },
        },
        '400': errorAnswer(
          '`bad_request`: `code` unknown, expired, disabled or used up (one answer for all)',
        ),
        '401': errorAnswer('Missing, unknown, revoked, disabled or expired token'),
        '403': errorAnswer('`forbidden`: an admin token'),
        '409': errorAnswer('`conflict`: an unlimited token, which has no balance'),
        '429': errorAnswer('`too_many_requests`: more than 10 failed redemptions in a minute'),
      },
    },
  };
  for (const prefix of PREFIXES)
    paths[`${prefix}/models`] = account(`The models ${prefix} answers to, in OpenAI's list shape`, {
      object: 'list',
      data: [{ id: 'chatmodel-4o', object: 'model', created: 1764000000, owned_by: 'switchyard' }],
    });
  return paths;
}

export function openApiDocument(serverUrl: string, version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard',
      version,
      description:
        'Web search, video, music, chat, artistic QR codes and ID-card verification behind one bearer token.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: plain(ErrorBody) },
    },
    paths: {
      ...Object.fromEntries(OPERATIONS.map((operation) => [operation.path, pathItem(operation)])),
      ...sidePaths(),
      ...originPaths(),
    },
  };
}

export async function registerOpenApi(
  app: FastifyInstance,
  document: Record<string, unknown>,
): Promise<void> {
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', async () => document);
}
