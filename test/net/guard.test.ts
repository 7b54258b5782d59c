import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPolicy } from '../../src/net/address-policy.js';
import { OutboundGuard, OutboundRefused, ResponseTooLarge, type Resolver } from '../../src/net/guard.js';

let origin: Server;
let port: number;
let lookups = 0;

// Test names resolve through this table; every other name goes nowhere.
const names: Record<string, () => string[]> = {
  'evil.test': () => ['10.0.0.5'],
  'metadata.test': () => ['169.254.169.254'],
  'mixed.test': () => ['93.184.216.34', '127.0.0.2'],
  'origin.test': () => ['127.0.0.1'],
  // Answers the allowed address once, then a private one, as a rebinding attacker's DNS would.
  'rebind.test': () => (lookups++ === 0 ? ['127.0.0.1'] : ['10.9.9.9']),
};
const resolve: Resolver = async (hostname) => {
  const entry = names[hostname];
  if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return entry().map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const strict = new OutboundGuard({
  policy: addressPolicy({ allowPrivate: false, allowCidrs: [] }),
  timeoutMs: 2000,
  maxRedirects: 3,
});
// The origin server lives on 127.0.0.1; only that one address is trusted, as an operator would
// trust one internal upstream.
const guard = new OutboundGuard({
  policy: addressPolicy({ allowPrivate: false, allowCidrs: ['127.0.0.1/32'] }),
  timeoutMs: 2000,
  maxRedirects: 3,
  resolve,
});

beforeAll(async () => {
  origin = createServer((req, res) => {
    const redirects: Record<string, string> = {
      '/to-loopback': `http://127.0.0.2:${port}/ok`,
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
      '/to-evil-name': `http://evil.test:${port}/ok`,
      '/to-ok': '/ok',
      '/to-file': 'file:///etc/passwd',
      '/loop': '/loop',
    };
    const target = redirects[req.url ?? ''];
    if (target) {
      res.writeHead(302, { location: target }).end();
    } else if (req.url === '/big') {
      res.writeHead(200).end(Buffer.alloc(2 * 1024 * 1024));
    } else if (req.url === '/big-unsized') {
      // Chunked: no content-length to refuse it by, so the cap must count what arrives.
      res.writeHead(200);
      for (let i = 0; i < 32; i += 1) res.write(Buffer.alloc(64 * 1024));
      res.end();
    } else if (req.url === '/slow') {
      setTimeout(() => res.writeHead(200).end('late'), 3000);
    } else {
      res.writeHead(200, { connection: 'close' }).end('fine');
    }
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  port = (origin.address() as AddressInfo).port;
});
afterAll(async () => {
  origin.close();
  await Promise.all([strict.close(), guard.close()]);
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefused);
  return (error as Error).message;
}

describe('outbound guard', () => {
  it('refuses private, loopback, link-local and other special addresses given literally', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://127.0.0.2:8080/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.100.100.200/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://2130706433/', // 127.0.0.1 in decimal
      'http://0x7f.1/', // 127.0.0.1 in hex shorthand
    ]) {
      expect(await refusal(strict.request(url)), url).toMatch(/not allowed/);
    }
  });

  it('refuses other schemes and embedded credentials', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/x',
      'gopher://example.com/',
      'data:text/plain,hi',
    ]) {
      expect(await refusal(strict.request(url))).toMatch(/scheme .* is not allowed/);
    }
    expect(await refusal(strict.request('http://user:pw@example.com/'))).toMatch(/credentials/);
    expect(await refusal(strict.request('not a url'))).toMatch(/not a valid URL/);
  });

  it('refuses a port and a host that nothing can connect to', async () => {
    expect(await refusal(strict.request('https://example.com:0/'))).toMatch(/port 0/);
    for (const url of [`http://${'a'.repeat(64)}.example/`, `http://${'abc.'.repeat(64)}example/`]) {
      expect(await refusal(strict.request(url)), url).toMatch(/is not a DNS name/);
    }
  });

  it('refuses DNS names that resolve to private addresses', async () => {
    expect(await refusal(guard.request(`http://evil.test:${port}/ok`))).toMatch(
      /^evil.test resolves to a private or reserved address/,
    );
    expect(await refusal(guard.request('http://metadata.test/'))).toMatch(
      /^metadata.test resolves to a private/,
    );
    // One private address among public ones is enough to refuse the name.
    expect(await refusal(guard.request(`http://mixed.test:${port}/ok`))).toMatch(
      /^mixed.test resolves to a private/,
    );
    // The system resolver too: localhost is loopback.
    expect(await refusal(strict.request(`http://localhost:${port}/ok`))).toMatch(/not allowed/);
  });

  it('reaches an allowed address, by literal and by name', async () => {
    const direct = await guard.request(`http://127.0.0.1:${port}/ok`);
    expect([direct.status, direct.body.toString()]).toEqual([200, 'fine']);
    const named = await guard.request(`http://origin.test:${port}/to-ok`);
    expect([named.status, named.body.toString(), named.url]).toEqual([
      200,
      'fine',
      `http://origin.test:${port}/ok`,
    ]);
  });

  it('checks every redirect hop', async () => {
    expect(await refusal(guard.request(`http://127.0.0.1:${port}/to-loopback`))).toMatch(/127.0.0.2/);
    expect(await refusal(guard.request(`http://127.0.0.1:${port}/to-metadata`))).toMatch(/169.254.169.254/);
    const named = await refusal(guard.request(`http://127.0.0.1:${port}/to-evil-name`));
    // The client learns that the name is refused, not which internal address it has.
    expect(named).toMatch(/^evil.test resolves to a private/);
    expect(named).not.toContain('10.0.0.5');
    expect(await refusal(guard.request(`http://127.0.0.1:${port}/to-file`))).toMatch(/scheme file/);
    expect(await refusal(guard.request(`http://127.0.0.1:${port}/loop`))).toMatch(/3 redirects/);
  });

  it('checks the address of every new connection, so DNS rebinding fails', async () => {
    lookups = 0;
    const first = await guard.request(`http://rebind.test:${port}/ok`);
    expect(first.status).toBe(200);
    expect(await refusal(guard.request(`http://rebind.test:${port}/ok`))).toMatch(
      /^rebind.test resolves to a private/,
    );
  });

  it('caps the size of what it reads', async () => {
    const error = await guard
      .request(`http://127.0.0.1:${port}/big`, { maxBytes: 1024 * 1024 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLarge);
    const unsized = await guard
      .request(`http://127.0.0.1:${port}/big-unsized`, { maxBytes: 1024 * 1024 })
      .catch((e: unknown) => e);
    expect(unsized).toBeInstanceOf(ResponseTooLarge);
    const within = await guard.request(`http://127.0.0.1:${port}/big-unsized`, { maxBytes: 4 * 1024 * 1024 });
    expect(within.body.length).toBe(2 * 1024 * 1024);
  });

  it('gives up on an answer that does not come in time', async () => {
    const started = performance.now();
    expect(await refusal(guard.request(`http://127.0.0.1:${port}/slow`, { timeoutMs: 300 }))).toBe(
      'did not answer within 300 ms',
    );
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('reaches private addresses only when the operator allows them', async () => {
    const open = new OutboundGuard({
      policy: addressPolicy({ allowPrivate: true, allowCidrs: [] }),
      timeoutMs: 2000,
      maxRedirects: 3,
    });
    try {
      expect((await open.request(`http://localhost:${port}/ok`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
