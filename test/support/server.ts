/**
 * Starts the real server (the same `buildApp` as `switchyard serve`) on a free loopback port with
 * a fresh data directory, and offers tokens and an HTTP client against it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config/index.js';
import {
  closeServices,
  openServices,
  startWorkers,
  type ServiceOptions,
  type Services,
} from '../../src/services.js';
import { buildApp } from '../../src/http/app.js';
import { provision, type Backend } from './backends.js';
import type { NewToken } from '../../src/accounts/tokens.js';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** A new token, unlimited unless `spec` says otherwise. */
  token(spec?: Partial<NewToken>): Promise<string>;
  post(path: string, body: unknown, token?: string, headers?: Record<string, string>): Promise<Answer>;
  /** The raw response, for streams and aborts. */
  send(
    path: string,
    body: unknown,
    token: string,
    headers?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface StartOptions extends ServiceOptions {
  /** Where state lives; `embedded` when absent. */
  backend?: Backend;
  /** SWITCHYARD_* variables read as `switchyard serve` reads them; none when absent. */
  env?: NodeJS.ProcessEnv;
}

export async function startServer(
  overrides: Record<string, unknown> = {},
  { backend = 'embedded', env = {}, ...serviceOptions }: StartOptions = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
  const provisioned = await provision(backend);
  // The port is chosen before the configuration, so that file URLs name the real address.
  const port = await freePort();
  const config = loadConfig({
    env,
    overrides: {
      port,
      data_dir: dataDir,
      'log.level': 'silent',
      'tokens.cache_ms': 300,
      ...provisioned.overrides,
      ...overrides,
    },
  });
  const services = await openServices(config, serviceOptions);
  const app = await buildApp(services);
  await startWorkers(services);
  const address = await app.listen({ port, host: '127.0.0.1' });
  let counter = 0;
  return {
    url: address,
    app,
    services,
    config,
    async token(spec = {}) {
      counter += 1;
      const { secret } = await services.tokens.create({ name: `test-${counter}`, ...spec });
      return secret;
    },
    send(path, body, token, headers = {}, signal) {
      return fetch(`${address}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify(body),
        signal,
      });
    },
    async post(path, body, token, headers = {}) {
      const response = await fetch(`${address}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // Non-JSON answers are checked through `text`.
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async close() {
      await app.close();
      await closeServices(services);
      await provisioned.release();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
