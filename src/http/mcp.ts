/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, on the same server and port as the
 * operations. The bearer client token is checked here (401, and 403 for an admin token) before
 * any MCP message is read; each tool call then goes through its operation's own gates.
 *
 * Stateless: each POST gets a fresh MCP server and transport. The session id handed out at
 * initialization is no state of ours: it only tells one client's JSON-RPC ids from another's,
 * for cancellations (mcp/running-calls.ts), so any node accepts any session id. With no state
 * there is no stream to resume and nothing to end, so GET and DELETE answer 405.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Token } from '../accounts/tokens.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ServiceError } from '../errors.js';
import type { McpServices } from '../mcp/calls.js';
import type { Tokens } from '../accounts/tokens.js';
import { mcpServer } from '../mcp/server.js';
import { RunningCalls } from '../mcp/running-calls.js';
import { OTHER_METHODS } from './operations.js';

export const MCP_PATH = '/mcp';

/** The session a request belongs to: the client's header, or a new one at initialization. */
function sessionOf(header: string | string[] | undefined, body: unknown): { id: string; isNew: boolean } {
  if (typeof header === 'string' && header !== '') return { id: header, isNew: false };
  return { id: isInitializeRequest(body) ? randomUUID() : '', isNew: isInitializeRequest(body) };
}

export function registerMcp(app: FastifyInstance, services: McpServices & { tokens: Tokens }): void {
  const running = new RunningCalls();
  const tokens = new WeakMap<FastifyRequest, Token>();
  app.route({
    method: 'POST',
    url: MCP_PATH,
    // The token is known before the body is read, as on the operations' paths.
    onRequest: async (request) => {
      const token = await services.tokens.authenticate(request.headers.authorization);
      if (token.role !== 'client') {
        throw new ServiceError('forbidden', 'an admin token calls /admin/api/v1 only, not /mcp');
      }
      tokens.set(request, token);
    },
    handler: async (request, reply) => {
      const authorization = request.headers.authorization as string;
      const token = tokens.get(request) as Token;
      const session = sessionOf(request.headers['mcp-session-id'], request.body);
      const gone = new AbortController();
      const server = mcpServer({
        app,
        services,
        running,
        token,
        authorization,
        sessionId: session.id,
        gone: gone.signal,
        traceId: request.id,
        log: request.log,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // The transport writes the response itself; what Fastify would have added goes on first.
      reply.hijack();
      reply.raw.setHeader('x-trace-id', request.id);
      if (session.isNew) reply.raw.setHeader('mcp-session-id', session.id);
      reply.raw.once('close', () => {
        gone.abort();
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        // Past hijack Fastify's error handler cannot answer: the fault is logged, and the client
        // gets the service's 500 where nothing was written yet.
        request.log.error({ err: error }, 'unhandled fault');
        if (reply.raw.headersSent) return void reply.raw.end();
        const message = `internal error; quote trace_id ${request.id} when reporting it`;
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({ success: false, error: { code: 'api_error', message }, trace_id: request.id }),
        );
      }
    },
  });
  app.route({
    method: OTHER_METHODS,
    url: MCP_PATH,
    handler: async () => {
      throw new ServiceError(
        'method_not_allowed',
        `${MCP_PATH} takes POST only: this server keeps no streams`,
        {
          headers: { allow: 'POST' },
        },
      );
    },
  });
}
