/**
 * The OpenAPI 3.1 document, generated from the operation table: the same schemas that validate
 * requests describe them. Served at `/openapi.json`, with interactive docs at `/docs`.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { OPERATIONS } from '../contract/table.js';
import { ErrorBody, TaskAccepted } from '../contract/responses.js';
import type { Operation } from '../contract/types.js';

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
    paths: Object.fromEntries(OPERATIONS.map((operation) => [operation.path, pathItem(operation)])),
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
