// The JSON body of a request to one of the loopback servers of the benchmarks (the chat upstream,
// the bare relay): `then(body)` once it is read, `bad()` when it is not JSON.
export function readJson(req, then, bad) {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      return bad();
    }
    then(body);
  });
}
