/**
 * A tool call goes to its operation through the Fastify instance itself (`inject`), with the
 * caller's own Authorization header: the same gates (token, permission, rate and concurrency),
 * validation, credits, handler, usage row, request log line and metrics as an HTTP request to the
 * operation's path, so that nothing an MCP client does can be counted or checked differently.
 */
import type { FastifyInstance } from 'fastify';

export interface Dispatched {
  status: number;
  body: Record<string, unknown>;
}

export async function dispatch(
  app: FastifyInstance,
  authorization: string,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Dispatched> {
  const response = await app.inject({
    method: 'POST',
    url: path,
    headers: { ...headers, authorization, 'content-type': 'application/json', accept: 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}
