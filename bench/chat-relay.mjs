// A bare relay for bench/chat.mjs: the least an OpenAI-compatible chat gateway in Node can do,
// as a floor to measure a gateway's own work against. node:http in front, undici's dispatcher
// behind (the pool Switchyard's upstream calls use), the model renamed on the way up and back on
// the way down (here to the same name); a stream's bytes are passed on as they come. No token, no validation, no
// accounting, no log, no metrics: what Switchyard costs above this is what its features cost.
// Usage: node bench/chat-relay.mjs UPSTREAM_BASE_URL. Prints {url} as one JSON line, then serves
// until killed.
import { createServer } from 'node:http';
import { Agent } from 'undici';
import { readJson } from './read-json.mjs';

const target = new URL(`${process.argv[2]}/chat/completions`);
const upstream = new Agent({ keepAliveTimeout: 30_000, connections: 256 });

function fail(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message } }));
}

function relay(body, res) {
  const model = body.model;
  const chunks = [];
  upstream.dispatch(
    {
      origin: target.origin,
      path: target.pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-upstream' },
      body: JSON.stringify({ ...body, model }),
    },
    {
      onRequestStart() {},
      onResponseStart(_, statusCode, headers) {
        this.streams = body.stream === true && statusCode === 200;
        if (this.streams) res.writeHead(200, { 'content-type': headers['content-type'] });
        else this.statusCode = statusCode;
      },
      onResponseData(_, chunk) {
        if (this.streams) res.write(chunk);
        else chunks.push(chunk);
      },
      onResponseEnd() {
        if (this.streams) return res.end();
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        answer.model = model;
        const text = JSON.stringify(answer);
        res.writeHead(this.statusCode, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      },
      onResponseError(_, error) {
        if (res.headersSent) res.destroy(error);
        else fail(res, 502, error.message);
      },
    },
  );
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/') return res.end('ok');
  readJson(
    req,
    (body) => relay(body, res),
    () => fail(res, 400, 'body is not JSON'),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })),
);
