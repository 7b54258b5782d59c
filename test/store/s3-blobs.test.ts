import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { S3Blobs, type S3Options } from '../../src/store/s3-blobs.js';
import { S3_KEYS, startS3, type TestS3 } from '../support/s3.js';

let s3: TestS3;
let blobs: S3Blobs;
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

const options = (more: Partial<S3Options> = {}): S3Options => ({
  bucket: s3.bucket,
  region: 'us-east-1',
  endpoint: s3.endpoint,
  ...S3_KEYS,
  force_path_style: true,
  files: 'proxy',
  presign_seconds: 900,
  ...more,
});

async function text(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysInBucket(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) keys.push(object.Key as string);
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

beforeAll(async () => {
  s3 = await startS3();
  blobs = new S3Blobs(options());
});
afterAll(async () => {
  await blobs?.close();
  await s3?.close();
});

describe('S3Blobs against a local S3 server', () => {
  it('stores under an unguessable key and states size, type and time', async () => {
    const before = Date.now();
    const key = await blobs.put(bytes, 'mp4');
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}\.mp4$/);
    const info = await blobs.stat(key);
    expect(info?.size).toBe(1000);
    expect(info?.contentType).toBe('video/mp4');
    // S3 times have whole seconds.
    expect(info?.modifiedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(info?.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('refuses extensions without a content type', async () => {
    await expect(blobs.put(bytes, 'exe')).rejects.toThrow(/no content type/);
  });

  it('answers undefined for missing objects and for names that are not keys', async () => {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'notes.txt', Body: 'not ours' }));
    expect(await blobs.stat('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.mp4')).toBeUndefined();
    expect(await blobs.stat('notes.txt')).toBeUndefined();
    expect(await blobs.stat('../notes.txt')).toBeUndefined();
  });

  it('reads whole objects and byte ranges', async () => {
    const key = await blobs.put(bytes, 'png');
    expect((await text(await blobs.read(key))).equals(bytes)).toBe(true);
    expect(
      (await text(await blobs.read(key, { start: 100, end: 199 }))).equals(bytes.subarray(100, 200)),
    ).toBe(true);
    expect((await text(await blobs.read(key, { start: 999, end: 999 }))).equals(bytes.subarray(999))).toBe(
      true,
    );
    // Not `bytes=0-0`: s3rver 3.7.1 takes an end of 0 for none and answers the whole object.
    expect((await text(await blobs.read(key, { start: 0, end: 1 }))).equals(bytes.subarray(0, 2))).toBe(true);
  });

  it('gives no direct URL in proxy mode, a presigned one in redirect mode', async () => {
    const key = await blobs.put(bytes, 'webm');
    expect(await blobs.directUrl(key)).toBeUndefined();
    const redirecting = new S3Blobs(options({ files: 'redirect', presign_seconds: 120 }));
    const url = new URL((await redirecting.directUrl(key)) as string);
    await redirecting.close();
    expect(`${url.origin}${url.pathname}`).toBe(`${s3.endpoint}/${s3.bucket}/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/webm');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('presigns URLs that stop working after presign_seconds', async () => {
    const key = await blobs.put(bytes, 'mp3');
    const brief = new S3Blobs(options({ files: 'redirect', presign_seconds: 1 }));
    const url = (await brief.directUrl(key)) as string;
    await brief.close();
    expect((await fetch(url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await fetch(url)).status).toBe(403);
  });

  it('checks the bucket: ready, missing, wrong keys', async () => {
    expect(await blobs.check()).toBeUndefined();
    const missing = new S3Blobs(options({ bucket: 'no-such-bucket' }));
    expect(await missing.check()).toMatch(/^blob bucket does not answer/);
    await missing.close();
    const wrong = new S3Blobs(options({ secret_access_key: 'not-the-secret' }));
    expect(await wrong.check()).toMatch(/^blob bucket does not answer/);
    await expect(wrong.put(bytes, 'png')).rejects.toThrow();
    await wrong.close();
  });

  it('refuses an access key without its secret', () => {
    expect(() => new S3Blobs(options({ secret_access_key: undefined }))).toThrow(/together/);
  });

  it('sweeps our objects older than the age, page after page, and nothing else', async () => {
    // Young objects survive a sweep.
    const young = await blobs.put(bytes, 'json');
    expect(await blobs.sweep(60_000)).toBe(0);
    expect(await blobs.stat(young)).toBeDefined();

    // More than one listing page (1000 keys) of ours, next to an object that is not ours.
    const ours = new Set(await keysInBucket());
    ours.delete('notes.txt');
    const small = Buffer.from('x');
    for (let i = 0; i < 1010; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => blobs.put(small, 'txt')));
      for (const key of batch) ours.add(key);
    }
    expect(ours.size).toBeGreaterThan(1000);
    // Old enough for a one-second retention, whatever the precision of the server's times.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await blobs.sweep(1000)).toBe(ours.size);
    expect(await keysInBucket()).toEqual(['notes.txt']);
  });
});
