/**
 * An OpenAI-compatible upstream on loopback whose account the test controls: healthy, failing
 * (500), rate-limited (429 with Retry-After), out of quota (OpenAI's 429 `insufficient_quota`),
 * or with its key revoked (401). It answers `GET /models` (what probes ask) and non-streamed
 * `POST /chat/completions`. Whatever the account's state, two refusals are the request's: a
 * request longer than the model's context (here 1000 characters) is 400 `context_length_exceeded`,
 * and a prompt holding `FLAGGED` is refused by its moderation as 403 `content_policy_violation`
 * (the status some OpenAI-compatible gateways give it) with the prompt quoted in the message.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A word its moderation refuses. */
export const FLAGGED = 'forbidden-topic';

export type AccountState = 'ok' | 'failing' | 'rate_limited' | 'no_quota' | 'revoked';

export interface FakeAccount {
  baseUrl: string;
  set(state: AccountState): void;
  /** Requests received, by path. */
  hits: { method: string; path: string }[];
  close(): Promise<void>;
}

function error(res: ServerResponse, status: number, message: string, type: string, code: string | null) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

export async function startFakeAccount(): Promise<FakeAccount> {
  let state: AccountState = 'ok';
  const hits: FakeAccount['hits'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/v1/, '');
      hits.push({ method: req.method ?? '', path });
      const body = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>)
        : {};
      if (req.method === 'POST' && path === '/chat/completions') {
        const prompt = JSON.stringify(body.messages ?? []);
        if (prompt.includes(FLAGGED))
          return error(
            res,
            403,
            `Your request was rejected as a result of our safety system: ${prompt}`,
            'invalid_request_error',
            'content_policy_violation',
          );
        if (prompt.length > 1000)
          return error(
            res,
            400,
            "This model's maximum context length is 1000 characters. Please reduce the length of the messages.",
            'invalid_request_error',
            'context_length_exceeded',
          );
      }
      if (state === 'failing') return error(res, 500, 'The server had an error', 'server_error', null);
      if (state === 'revoked')
        return error(res, 401, 'Incorrect API key provided', 'invalid_request_error', 'invalid_api_key');
      if (state === 'no_quota')
        return error(
          res,
          429,
          'You exceeded your current quota, please check your plan and billing details.',
          'insufficient_quota',
          'insufficient_quota',
        );
      if (state === 'rate_limited') {
        res.setHeader('retry-after', '3');
        return error(res, 429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'GET' && path === '/models')
        return res.end(
          JSON.stringify({
            object: 'list',
            data: [{ id: 'gpt-4o', object: 'model', created: 0, owned_by: 'x' }],
          }),
        );
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: String(body.model),
          choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    set: (next) => (state = next),
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
