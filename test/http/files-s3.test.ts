import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { startS3, type TestS3 } from '../support/s3.js';

let s3: TestS3;
let proxy: TestServer;
let redirect: TestServer;
let key: string;
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  s3 = await startS3();
  proxy = await startServer({ 'blobs.s3': s3.config });
  redirect = await startServer({ 'blobs.s3': { ...s3.config, files: 'redirect', presign_seconds: 60 } });
  key = await proxy.services.blobs.put(bytes, 'mp4');
});
afterAll(async () => {
  await proxy?.close();
  await redirect?.close();
  await s3?.close();
});

const get = (server: TestServer, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${server.url}${path}`, { method, headers, redirect: 'manual' });

const body = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('/files from an S3 bucket, proxied', () => {
  it('serves a whole object with its content type', async () => {
    const response = await get(proxy, `/files/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('content-length')).toBe('1000');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect((await body(response)).equals(bytes)).toBe(true);
  });

  it('serves byte ranges', async () => {
    const middle = await get(proxy, `/files/${key}`, { range: 'bytes=100-199' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect((await body(middle)).equals(bytes.subarray(100, 200))).toBe(true);

    const suffix = await get(proxy, `/files/${key}`, { range: 'bytes=-10' });
    expect(suffix.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect((await body(suffix)).equals(bytes.subarray(990))).toBe(true);

    const open = await get(proxy, `/files/${key}`, { range: 'bytes=995-' });
    expect((await body(open)).equals(bytes.subarray(995))).toBe(true);

    const past = await get(proxy, `/files/${key}`, { range: 'bytes=5000-6000' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');
  });

  it('answers HEAD with the length and no body', async () => {
    const response = await get(proxy, `/files/${key}`, {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('1000');
    expect((await body(response)).byteLength).toBe(0);
  });

  it('answers 404 for unknown keys and anything that is not a key', async () => {
    for (const path of [
      '/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.mp4',
      '/files/..%2F..%2Fetc%2Fpasswd',
      `/files/${key.replace('.mp4', '.exe')}`,
    ]) {
      expect((await get(proxy, path)).status).toBe(404);
    }
  });

  it('is ready while the bucket answers, and says so when it does not', async () => {
    expect((await fetch(`${proxy.url}/readyz`)).status).toBe(200);
    const lost = await startServer({ 'blobs.s3': { ...s3.config, bucket: 'no-such-bucket' } });
    try {
      const response = await fetch(`${lost.url}/readyz`);
      expect(response.status).toBe(503);
      const answer = (await response.json()) as { problems: string[] };
      expect(answer.problems).toEqual([expect.stringMatching(/^blob bucket does not answer/)]);
    } finally {
      await lost.close();
    }
  });
});

describe('/files from an S3 bucket, redirected', () => {
  it('redirects to a presigned URL that gives the bytes', async () => {
    const response = await get(redirect, `/files/${key}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = new URL(response.headers.get('location') as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('60');

    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('video/mp4');
    expect((await body(object)).equals(bytes)).toBe(true);

    const range = await fetch(location, { headers: { range: 'bytes=100-199' } });
    expect(range.status).toBe(206);
    expect((await body(range)).equals(bytes.subarray(100, 200))).toBe(true);
  });

  it('is followed by an ordinary client', async () => {
    const response = await fetch(`${redirect.url}/files/${key}`);
    expect(response.status).toBe(200);
    expect((await body(response)).equals(bytes)).toBe(true);
  });

  it('redirects HEAD too, and answers 404 itself', async () => {
    expect((await get(redirect, `/files/${key}`, {}, 'HEAD')).status).toBe(302);
    const missing = await get(redirect, '/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.mp4');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('location')).toBeNull();
  });

  it('gives URLs the bucket refuses once tampered with', async () => {
    const location = new URL((await get(redirect, `/files/${key}`)).headers.get('location') as string);
    const signature = location.searchParams.get('X-Amz-Signature') as string;
    const tampered = new URL(location);
    tampered.searchParams.set(
      'X-Amz-Signature',
      `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
    );
    expect((await fetch(tampered)).status).toBe(403);
    const otherKey = new URL(location);
    otherKey.pathname = `/${s3.bucket}/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.mp4`;
    expect((await fetch(otherKey)).status).toBe(403);
    expect((await fetch(`${location.origin}${location.pathname}`)).status).toBe(403);
  });
});
