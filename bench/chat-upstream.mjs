// The upstream for bench/chat.mjs: a minimal OpenAI-compatible chat completions server on
// loopback that answers at once with a fixed short completion; with `stream: true`, a few SSE
// chunks (the usage chunk too when stream_options.include_usage asks for it) then `data: [DONE]`.
// `GET /stats` answers how many completions it served and on how many connections, so
// that the benchmark can check that a gateway really reached it (and how it reuses connections).
// Prints {url, base_url} as one JSON line, then serves until killed.
import { createServer } from 'node:http';
import { readJson } from './read-json.mjs';

const CONTENT = ['Hello', ' from', ' the', ' bench', ' upstream.'];
const usage = { prompt_tokens: 9, completion_tokens: CONTENT.length, total_tokens: 9 + CONTENT.length };
let served = 0;
let connections = 0;

function completion(model, id, created) {
  return JSON.stringify({
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: CONTENT.join(''), refusal: null },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage,
  });
}

function chunks(model, id, created, includeUsage) {
  const event = (choices, extra = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
  const delta = (d, finish = null) => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];
  const out = [event(delta({ role: 'assistant', content: '' }))];
  for (const part of CONTENT) out.push(event(delta({ content: part })));
  out.push(event(delta({}, 'stop')));
  if (includeUsage) out.push(event([], { usage }));
  out.push('data: [DONE]\n\n');
  return out;
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ served, connections }));
    return;
  }
  if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } }));
    return;
  }
  readJson(
    req,
    (body) => answer(req, res, body),
    () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'body is not JSON', type: 'invalid_request_error' } }));
    },
  );
});

/** The completion (or stream) for `body`. */
function answer(req, res, body) {
  served += 1;
  if (!req.socket.servedCompletion) {
    req.socket.servedCompletion = true;
    connections += 1;
  }
  const id = `chatcmpl-bench-${served}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completion(model, id, created));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events = chunks(model, id, created, body.stream_options?.include_usage === true);
  for (const event of events.slice(0, -1)) res.write(event);
  res.end(events.at(-1));
}

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  console.log(JSON.stringify({ url, base_url: `${url}/v1` }));
});
