/**
 * The S3-compatible server of the tests, as a process of its own:
 * `node --openssl-legacy-provider --import tsx test/support/s3-server.ts DIRECTORY`. It listens on
 * a free loopback port, prints its endpoint on one line, and ends when its standard input closes
 * (when the test process that started it is gone).
 *
 * s3rver (pure JavaScript, from the npm registry) does the storing. A process of its own because
 * s3rver 3.7.1 makes ListObjectsV2 continuation tokens with DES, which Node 17 and later only
 * offer with --openssl-legacy-provider; the flag stays out of the test processes.
 *
 * s3rver checks access keys, request times and the expiry of presigned URLs, but not SigV4
 * signatures, and it serves anonymous requests. So every request first passes the check below:
 * AWS's SigV4 algorithm, written out here rather than taken from the SDK that signs, and anonymous
 * requests are refused, as by a private bucket. Payload hashes are taken as sent, not recomputed.
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';

/** The only key pair s3rver knows. */
const KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Why the request's signature is refused (an S3 error code), or undefined when it is good. */
function signatureProblem(request: IncomingMessage): string | undefined {
  const url = request.url ?? '/';
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query = (at < 0 ? '' : url.slice(at + 1))
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const equals = pair.includes('=') ? pair.indexOf('=') : pair.length;
      return [pair.slice(0, equals), pair.slice(equals + 1)].map(decodeURIComponent) as [string, string];
    });
  const param = (name: string) => query.find(([key]) => key === name)?.[1];

  let credential: string | undefined;
  let signedHeaders: string | undefined;
  let signature: string | undefined;
  let date: string | undefined;
  let payload: string | undefined;
  if (param('X-Amz-Signature') !== undefined) {
    credential = param('X-Amz-Credential');
    signedHeaders = param('X-Amz-SignedHeaders');
    signature = param('X-Amz-Signature');
    date = param('X-Amz-Date');
    payload = 'UNSIGNED-PAYLOAD';
  } else {
    const header = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=(\w+)$/.exec(
      request.headers.authorization ?? '',
    );
    if (!header) return 'AccessDenied';
    [, credential, signedHeaders, signature] = header;
    date = request.headers['x-amz-date'] as string | undefined;
    payload = request.headers['x-amz-content-sha256'] as string | undefined;
  }
  if (!credential || !signedHeaders || !signature || !date || !payload) return 'AccessDenied';
  const [keyId, ...scope] = credential.split('/');
  if (keyId !== KEY_ID || scope.length !== 4) return 'InvalidAccessKeyId';

  const canonicalQuery = query
    .filter(([key]) => key !== 'X-Amz-Signature')
    .map(([key, value]) => [encode(key), encode(value)])
    .sort(([a = '', x = ''], [b = '', y = '']) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const names = signedHeaders.split(';');
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payload,
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope.join('/'), sha256(canonicalRequest)].join('\n');
  let key: Buffer | string = `AWS4${SECRET}`;
  for (const part of scope) key = hmac(key, part);
  return hmac(key, stringToSign).toString('hex') === signature ? undefined : 'SignatureDoesNotMatch';
}

// Path-style buckets only: the endpoint is an address, with no names under it.
const s3rver = new S3rver({ directory: process.argv[2] as string, silent: true, vhostBuckets: false });
const handle = s3rver.getMiddleware();
const server = createServer((request, response) => {
  const problem = signatureProblem(request);
  if (!problem) return handle(request, response);
  response.writeHead(403, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${problem}</Code></Error>`);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume().on('end', () => process.exit(0));
