import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchInput, type MediaSources } from '../../src/net/media.js';
import { OutboundGuard } from '../../src/net/guard.js';
import { addressPolicy } from '../../src/net/address-policy.js';
import { DirectoryBlobs } from '../../src/store/blobs.js';
import { ServiceError } from '../../src/errors.js';

let origin: Server;
let base: string;
let sources: MediaSources;
const guard = new OutboundGuard({
  policy: addressPolicy({ allowPrivate: false, allowCidrs: ['127.0.0.1/32'] }),
  timeoutMs: 2000,
  maxRedirects: 2,
});

beforeAll(async () => {
  origin = createServer((req, res) => {
    if (req.url === '/image.png') res.writeHead(200).end(Buffer.from('png bytes'));
    else if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(4096));
    else if (req.url === '/private') res.writeHead(302, { location: 'http://10.1.1.1/x' }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  sources = {
    guard,
    blobs: new DirectoryBlobs(mkdtempSync(join(tmpdir(), 'sy-media-'))),
    publicBaseUrl: 'https://sy.example',
  };
});
afterAll(async () => {
  origin.close();
  await guard.close();
});

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('input media', () => {
  it('reads data: URLs, base64 or not', async () => {
    expect((await fetchInput(sources, 'image_url', 'data:image/png;base64,aGVsbG8=', 100)).toString()).toBe(
      'hello',
    );
    expect((await fetchInput(sources, 'image_url', 'data:text/plain,a%20b', 100)).toString()).toBe('a b');
    // A scheme and its parameters are case-insensitive.
    expect((await fetchInput(sources, 'image_url', 'DATA:image/png;BASE64,aGVsbG8=', 100)).toString()).toBe(
      'hello',
    );
    const broken = await failure(fetchInput(sources, 'image_url', 'data:text/plain,%E0%A4%A', 100));
    expect([broken.status, broken.message]).toEqual([
      400,
      'image_url: is not a valid data: URL (a % escape that is not UTF-8)',
    ]);
  });

  it('reads this service’s own files from the blob store', async () => {
    const key = await sources.blobs.put(Buffer.from('stored'), 'png');
    expect(
      (await fetchInput(sources, 'first_image_url', `https://sy.example/files/${key}`, 100)).toString(),
    ).toBe('stored');
    const missing = await failure(
      fetchInput(sources, 'first_image_url', 'https://sy.example/files/nothing.png', 100),
    );
    expect(missing.message).toMatch(/^first_image_url: names a file of this service that does not exist/);
  });

  it('fetches allowed http(s) URLs through the guard', async () => {
    expect((await fetchInput(sources, 'image_url', `${base}/image.png`, 100)).toString()).toBe('png bytes');
  });

  it('names the field in every refusal', async () => {
    const notFound = await failure(fetchInput(sources, 'image_url', `${base}/nothing`, 100));
    expect([notFound.status, notFound.message]).toEqual([
      400,
      'image_url: could not be fetched (the server answered 404)',
    ]);
    const redirected = await failure(fetchInput(sources, 'start_image_url', `${base}/private`, 100));
    expect(redirected.message).toMatch(/^start_image_url: address 10.1.1.1 is not allowed/);
    const big = await failure(fetchInput(sources, 'audio_url', `${base}/big`, 1024));
    expect([big.status, big.code]).toEqual([413, 'payload_too_large']);
    const inline = await failure(
      fetchInput(sources, 'audio_url', `data:;base64,${Buffer.alloc(2048).toString('base64')}`, 1024),
    );
    expect(inline.status).toBe(413);
  });
});
