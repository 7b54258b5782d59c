/**
 * The MCP server for one HTTP request to `/mcp`: made anew for each request and holding nothing
 * between them, so that any API node answers any request of a session. It lists the tools the
 * caller's token may use and runs their calls (calls.ts); a cancellation names a call running in
 * this process (running-calls.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Token } from '../accounts/tokens.js';
import { OPERATIONS } from '../contract/table.js';
import { VERSION } from '../version.js';
import { callTool, cancelCall, mayUse, type McpServices } from './calls.js';
import { errorResult } from './results.js';
import { callKeyOf, type RunningCalls } from './running-calls.js';
import { TOOLS, toolNamed } from './tools.js';

export interface McpRequest {
  app: FastifyInstance;
  services: McpServices;
  running: RunningCalls;
  token: Token;
  authorization: string;
  sessionId: string;
  /** Aborted when the HTTP request's connection closes. */
  gone: AbortSignal;
  /** The `/mcp` request's trace id, quoted by a fault's answer, and its log. */
  traceId: string;
  log: FastifyBaseLogger;
}

const INSTRUCTIONS =
  'Switchyard: web search, chat models, videos, music, vocals, artistic QR codes and ID card checks. ' +
  'Long generations report progress; one that outlasts the wait answers its task_id for get_task.';

export function mcpServer(request: McpRequest): Server {
  const { token, running, sessionId } = request;
  const server = new Server(
    { name: 'switchyard', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const usable = TOOLS.filter((tool) => mayUse(token, tool, OPERATIONS));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: usable.map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema: inputSchema as { type: 'object' },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    // A tool the token may not use is called all the same: its operation's gate refuses it (403),
    // counted and logged as over HTTP. A name that is no tool at all is a protocol error.
    const tool = toolNamed(call.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool named ${call.params.name}`);
    const progressToken = extra._meta?.progressToken;
    const callKey = callKeyOf(sessionId, extra.requestId);
    const { signal, end } = running.start(token.id, callKey);
    try {
      return await callTool(
        {
          app: request.app,
          services: request.services,
          token,
          authorization: request.authorization,
          cancelled: signal,
          gone: request.gone,
          ...(sessionId ? { callKey } : {}),
          ...(progressToken === undefined
            ? {}
            : {
                progress: ({ fraction, stage }) =>
                  extra.sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken, progress: fraction, total: 1, message: stage },
                  }),
              }),
        },
        tool,
        call.params.arguments ?? {},
      );
    } catch (error) {
      // A fault of ours is a tool error like any other, its detail kept in the log: an MCP
      // error's message would carry it (a path, a stack) to the client.
      request.log.error({ err: error, tool: tool.name }, 'unhandled fault');
      const message = `internal error; quote trace_id ${request.traceId} when reporting it`;
      return errorResult({
        success: false,
        error: { code: 'api_error', message },
        trace_id: request.traceId,
      });
    } finally {
      end();
    }
  });

  // Replaces the SDK's own handler, which knows only the calls of this one request's server.
  server.setNotificationHandler(CancelledNotificationSchema, async (notice) => {
    const { requestId } = notice.params;
    if (requestId === undefined) return;
    const callKey = callKeyOf(sessionId, requestId);
    running.cancel(token.id, callKey);
    if (!sessionId) return;
    await cancelCall(request.services, token, callKey).catch((error: unknown) =>
      request.log.error({ err: error }, 'MCP cancellation failed'),
    );
  });
  return server;
}
