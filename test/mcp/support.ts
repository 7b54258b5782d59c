/**
 * The official MCP SDK client against a test server's `/mcp`, over HTTP, with a bearer token.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '../support/server.js';

export async function connect(server: TestServer, token?: string): Promise<Client> {
  const client = new Client({ name: 'switchyard-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

export type Result = CallToolResult & { structuredContent: Record<string, unknown> };

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: Parameters<Client['callTool']>[2] = {},
): Promise<Result> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as Result;
}

/** A text content's text; fails the test where there is none. */
export function textOf(result: CallToolResult): string {
  const text = result.content.find((c) => c.type === 'text');
  if (!text || text.type !== 'text') throw new Error(`no text in ${JSON.stringify(result)}`);
  return text.text;
}

/** The resource links of a result, by media type. */
export function linksOf(result: CallToolResult, mimeType: string): { uri: string; name: string }[] {
  return result.content.flatMap((c) => (c.type === 'resource_link' && c.mimeType === mimeType ? [c] : []));
}
