import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let key: string;
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  server = await startServer();
  key = await server.services.blobs.put(bytes, 'mp4');
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${server.url}${path}`, { method, headers });

describe('/files', () => {
  it('serves a whole file with its content type', async () => {
    const response = await get(`/files/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('serves byte ranges', async () => {
    const middle = await get(`/files/${key}`, { range: 'bytes=100-199' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(Buffer.from(await middle.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    const suffix = await get(`/files/${key}`, { range: 'bytes=-10' });
    expect(suffix.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(990))).toBe(true);

    const open = await get(`/files/${key}`, { range: 'bytes=995-' });
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(995))).toBe(true);
  });

  it('answers 416 for a range past the end', async () => {
    const response = await get(`/files/${key}`, { range: 'bytes=5000-6000' });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */1000');
  });

  it('answers HEAD with the length and no body', async () => {
    const response = await get(`/files/${key}`, {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('1000');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 404 for unknown keys and anything that is not a key', async () => {
    for (const path of [
      '/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.mp4',
      '/files/..%2F..%2Fetc%2Fpasswd',
      '/files/%2E%2E%2Fswitchyard.db',
      `/files/${key.replace('.mp4', '.exe')}`,
    ]) {
      const response = await get(path);
      expect(response.status).toBe(404);
    }
  });

  it('gives every stored file its own unguessable key', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => server.services.blobs.put(bytes, 'png')));
    expect(new Set(keys).size).toBe(20);
    for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9_-]{32}\.png$/);
  });
});
