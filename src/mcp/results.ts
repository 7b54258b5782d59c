/**
 * What a tool call answers: the operation's JSON as structured content, and beside it what an MCP
 * client can show — chat replies as text, the QR image as image content, the audio, video and
 * images the service keeps as resource links to their `/files` URLs. A refused or failed call is
 * a tool error (never a protocol failure) whose text names each field and the rule it broke.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../contract/types.js';
import { contentTypeOf, isBlobKey, type Blobs } from '../store/blobs.js';

type Content = CallToolResult['content'][number];

interface ErrorBody {
  error?: { code?: string; message?: string; details?: { field: string; rule: string }[] };
}

/** A refusal or a failure, from the service's error body or a failed task's final envelope. */
export function errorResult(body: Record<string, unknown>): CallToolResult {
  const error = (body as ErrorBody).error ?? {};
  const details = error.details?.map((d) => `${d.field}: ${d.rule}`).join('; ');
  const text = `${error.code ?? 'api_error'}: ${details || error.message || 'the call failed'}`;
  return { isError: true, content: [{ type: 'text', text }], structuredContent: body };
}

/** Where a URL of ours points into the blob store: its key, else undefined. */
function blobKeyOf(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const match = /^\/files\/([^/]+)$/.exec(path);
  return match && isBlobKey(match[1] as string) ? match[1] : undefined;
}

/** Every `…_url` member anywhere in the answer that names a file of ours, with its JSON path. */
function fileLinks(value: unknown, path: string, out: Content[]): Content[] {
  if (Array.isArray(value)) value.forEach((item, i) => fileLinks(item, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      const at = path ? `${path}.${name}` : name;
      const key = name.endsWith('_url') && typeof member === 'string' ? blobKeyOf(member) : undefined;
      if (key)
        out.push({ type: 'resource_link', uri: member as string, name: at, mimeType: contentTypeOf(key) });
      else fileLinks(member, at, out);
    }
  }
  return out;
}

/** The replies of a chat completion, each choice's text (or its tool calls as JSON). */
function chatTexts(answer: Record<string, unknown>): Content[] {
  const choices = (answer.choices ?? []) as { message?: { content?: unknown; tool_calls?: unknown } }[];
  return choices.map(({ message }) => ({
    type: 'text' as const,
    text:
      typeof message?.content === 'string' && message.content !== ''
        ? message.content
        : JSON.stringify(message?.tool_calls ?? message ?? null),
  }));
}

async function qrImage(answer: Record<string, unknown>, blobs: Blobs): Promise<Content[]> {
  const url = (answer.response as { image_url?: unknown } | undefined)?.image_url;
  const key = typeof url === 'string' ? blobKeyOf(url) : undefined;
  if (!key) return [];
  const chunks: Buffer[] = [];
  for await (const chunk of await blobs.read(key)) chunks.push(chunk as Buffer);
  return [{ type: 'image', data: Buffer.concat(chunks).toString('base64'), mimeType: contentTypeOf(key) }];
}

/** A successful answer of `operation` (a synchronous answer, or a task's final envelope or record). */
export async function successResult(
  operation: Operation,
  answer: Record<string, unknown>,
  blobs: Blobs,
): Promise<CallToolResult> {
  const shown =
    operation.family === 'chat'
      ? chatTexts(answer)
      : operation.family === 'qrart'
        ? await qrImage(answer, blobs)
        : [];
  const json: Content = { type: 'text', text: JSON.stringify(answer) };
  // Chat shows its reply only: the JSON is in the structured content for whoever wants it.
  const content = operation.family === 'chat' ? shown : [...shown, ...fileLinks(answer, '', []), json];
  return { content, structuredContent: answer };
}
