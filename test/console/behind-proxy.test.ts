/**
 * The console behind a proxy. Through a real nginx running the shipped `deploy/nginx.conf` (its
 * upstream and port pointed at this test's), an operator signs in and makes a change with the
 * session cookie: the origin check sees the host the browser used. The cookie is `Secure` when
 * the public URL is https or a trusted proxy says the request came over https, and not when an
 * untrusted peer says so; an origin of the public URL is the console's own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, startServer, type TestServer } from '../support/server.js';

const BASE = '/admin/api/v1';

/** nginx in the foreground on `port`, running the shipped server block against `upstream`. */
async function startNginx(port: number, upstream: string): Promise<{ stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-nginx-'));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
  const shipped = readFileSync('deploy/nginx.conf', 'utf8');
  const site = shipped
    .replace('server api:8080;', `server ${upstream};`)
    .replace('listen 8080;', `listen 127.0.0.1:${port};`);
  expect(site).not.toBe(shipped);
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'user root;',
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events {}',
      'http {',
      '  access_log off;',
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (temp) => `  ${temp === 'body' ? 'client_body' : temp}_temp_path ${dir}/${temp};`,
      ),
      site,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await vi.waitFor(
    async () => {
      if (child.exitCode !== null)
        throw new Error(`nginx exited: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
      await fetch(`http://127.0.0.1:${port}/health`);
    },
    { timeout: 10_000, interval: 50 },
  );
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function signIn(url: string, origin: string, token: string, headers: Record<string, string> = {}) {
  return fetch(`${url}${BASE}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify({ token }),
  });
}

describe('through the shipped nginx', () => {
  let server: TestServer;
  let nginx: { stop(): Promise<void> };
  let proxied: string;

  beforeAll(async () => {
    server = await startServer({ trust_proxy: ['127.0.0.1'] });
    const port = await freePort();
    nginx = await startNginx(port, new URL(server.url).host);
    proxied = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await nginx?.stop();
    await server?.close();
  });

  it('signs in from the page the proxy serves, and changes a token with the session', async () => {
    const token = await server.token({ name: 'ops', role: 'admin' });
    const answer = await signIn(proxied, proxied, token);
    expect(answer.status, await answer.clone().text()).toBe(200);
    const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(answer.headers.get('set-cookie')).not.toContain('Secure');
    const patched = await fetch(`${proxied}${BASE}/tokens/ops`, {
      method: 'PATCH',
      headers: { cookie, origin: proxied, 'content-type': 'application/json' },
      body: JSON.stringify({ rate_per_second: 9 }),
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    // Another site's page is still refused through the proxy.
    const foreign = await fetch(`${proxied}${BASE}/tokens/ops`, {
      method: 'PATCH',
      headers: { cookie, origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ rate_per_second: 1 }),
    });
    expect(foreign.status).toBe(403);
  });
});

describe('the Secure flag and the public origin', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  const serve = async (overrides: Record<string, unknown>) => {
    const server = await startServer(overrides);
    servers.push(server);
    return { server, token: await server.token({ name: 'ops', role: 'admin' }) };
  };

  it('is set when a trusted proxy says https, and not when an untrusted peer says so', async () => {
    const trusted = await serve({ trust_proxy: ['127.0.0.1'] });
    const overHttps = await signIn(trusted.server.url, trusted.server.url, trusted.token, {
      'x-forwarded-proto': 'https',
    });
    expect(overHttps.status).toBe(200);
    expect(overHttps.headers.get('set-cookie')).toContain('; Secure');

    const untrusted = await serve({});
    const claimed = await signIn(untrusted.server.url, untrusted.server.url, untrusted.token, {
      'x-forwarded-proto': 'https',
    });
    expect(claimed.status).toBe(200);
    expect(claimed.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('is set when the public URL is https, whose origin the console may sign in from', async () => {
    const { server, token } = await serve({ public_base_url: 'https://console.example.com' });
    const answer = await signIn(server.url, 'https://console.example.com', token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('set-cookie')).toContain('; Secure');
    expect((await signIn(server.url, 'https://evil.example', token)).status).toBe(403);
  });
});
