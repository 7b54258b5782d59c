/**
 * An upstream speaking OpenAI chat completions, on loopback, for the tests of channels. It
 * answers deterministically from the request: the reply repeats the last user message's words
 * (one word a token), JSON mode answers a JSON object, a tool request calls the first tool; it
 * honours n, max_tokens (finish_reason length), stream and stream_options.include_usage. Tests
 * script failures (statuses to answer first, a delay, a stream that breaks after a few chunks)
 * and, where the echo is not what they need, the content of the next answers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Message {
  role: string;
  content?: unknown;
}

export interface UpstreamRequest {
  model: string;
  messages: Message[];
  n?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: string };
  tools?: { function: { name: string } }[];
  tool_choice?: unknown;
}

export interface FakeUpstream {
  name: string;
  baseUrl: string;
  /** Requests received, in order. */
  received: { body: UpstreamRequest; authorization?: string }[];
  /** Statuses to answer, one per request, before answering normally. */
  failNext(...statuses: number[]): void;
  /** Bodies to answer with 200 as they are, one per request (a vendor that misbehaves). */
  sendNext(...bodies: string[]): void;
  /** Delays every answer by this many milliseconds. */
  delay(ms: number): void;
  /** The next answers' content, one per request, before answering by echo again. */
  answerNext(...contents: string[]): void;
  /** The next streamed answer breaks after this many content chunks. */
  breakNextStreamAfter(chunks: number): void;
  close(): Promise<void>;
}

function words(messages: Message[]): string[] {
  const last = [...messages].reverse().find((m) => m.role === 'user' || m.role === 'tool');
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  return text.split(/\s+/).filter(Boolean);
}

function promptTokens(messages: Message[]): number {
  return messages.reduce(
    (sum, m) => sum + (typeof m.content === 'string' ? m.content.split(/\s+/).length : 1),
    0,
  );
}

function answerOf(body: UpstreamRequest): {
  content: string | null;
  toolCall?: { name: string; arguments: string };
  finish: string;
  tokens: number;
} {
  const lastRole = body.messages.at(-1)?.role;
  if (body.tools?.length && body.tool_choice !== 'none' && lastRole !== 'tool') {
    const name = body.tools[0]?.function.name ?? 'tool';
    return {
      content: null,
      toolCall: { name, arguments: JSON.stringify({ query: words(body.messages).join(' ') }) },
      finish: 'tool_calls',
      tokens: 8,
    };
  }
  const cap = body.max_completion_tokens ?? body.max_tokens;
  if (body.response_format?.type === 'json_object' || body.response_format?.type === 'json_schema') {
    return { content: JSON.stringify({ echo: words(body.messages).join(' ') }), finish: 'stop', tokens: 6 };
  }
  const all = words(body.messages);
  const cut = cap !== undefined && cap < all.length;
  const kept = cut ? all.slice(0, cap) : all;
  return { content: kept.join(' '), finish: cut ? 'length' : 'stop', tokens: kept.length };
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
  });
}

export async function startFakeUpstream(name: string): Promise<FakeUpstream> {
  const received: FakeUpstream['received'] = [];
  const failures: number[] = [];
  const rawBodies: string[] = [];
  const scripted: string[] = [];
  let delayMs = 0;
  let breakAfter: number | undefined;
  let counter = 0;
  const server: Server = createServer(async (req, res) => {
    // A channel's health probe lists the models (GET /v1/models in OpenAI's contract).
    if (req.method === 'GET' && req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o', object: 'model', owned_by: name }] }));
      return;
    }
    const body = JSON.parse(await read(req)) as UpstreamRequest;
    received.push({ body, authorization: req.headers.authorization });
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const raw = rawBodies.shift();
    if (raw !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(raw);
      return;
    }
    const failure = failures.shift();
    if (failure !== undefined) {
      res.writeHead(failure, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `${name} answers ${failure}`, type: 'test' } }));
      return;
    }
    counter += 1;
    const id = `chatcmpl-${name}-${counter}`;
    const created = Math.floor(Date.now() / 1000);
    const n = body.n ?? 1;
    const next = scripted.shift();
    const answer =
      next === undefined
        ? answerOf(body)
        : { content: next, finish: 'stop', tokens: next.split(/\s+/).length };
    const usage = {
      prompt_tokens: promptTokens(body.messages),
      completion_tokens: answer.tokens * n,
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const toolCalls = answer.toolCall
      ? [{ index: 0, id: `call_${counter}`, type: 'function', function: answer.toolCall }]
      : undefined;
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: Array.from({ length: n }, (_, index) => ({
            index,
            message: {
              role: 'assistant',
              content: answer.content,
              refusal: null,
              ...(toolCalls ? { tool_calls: toolCalls.map(({ index: _i, ...t }) => t) } : {}),
            },
            logprobs: null,
            finish_reason: answer.finish,
          })),
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (chunk: object) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, ...chunk })}\n\n`,
      );
    const cut = breakAfter;
    breakAfter = undefined;
    for (let index = 0; index < n; index += 1) {
      send({
        choices: [{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      });
      const parts =
        answer.content === null ? [] : answer.content.split(' ').map((w, i) => (i === 0 ? w : ` ${w}`));
      for (const [i, part] of parts.entries()) {
        if (cut !== undefined && i >= cut) {
          // Let what was written reach the client first: the break must come mid-stream.
          await new Promise((r) => setTimeout(r, 50));
          res.destroy();
          return;
        }
        send({ choices: [{ index, delta: { content: part }, logprobs: null, finish_reason: null }] });
      }
      if (toolCalls)
        send({ choices: [{ index, delta: { tool_calls: toolCalls }, logprobs: null, finish_reason: null }] });
      send({ choices: [{ index, delta: {}, logprobs: null, finish_reason: answer.finish }] });
    }
    if (body.stream_options?.include_usage) send({ choices: [], usage });
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    name,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    failNext: (...statuses) => failures.push(...statuses),
    sendNext: (...bodies) => rawBodies.push(...bodies),
    answerNext: (...contents) => scripted.push(...contents),
    delay: (ms) => (delayMs = ms),
    breakNextStreamAfter: (chunks) => (breakAfter = chunks),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
