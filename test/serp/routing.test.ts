/**
 * Search channels behind /serp/web, over HTTP: upstreams on loopback speaking SearXNG's, Serper's
 * and this service's own interface, routed like chat: priority, fallback on failures, types a
 * channel serves, the local index as one channel among them, and errors that name no upstream.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SerpResponse } from '../../src/contract/serp.js';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { startServer, type TestServer } from '../support/server.js';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.js';
import { startFakeSerper, type FakeSerper } from '../support/fake-serper.js';
import { startFakeSerpWeb, type FakeSerpWeb } from '../support/fake-serp-web.js';
import { expectError, expectShape } from '../support/expect.js';

let searxng: FakeSearxng;
let serper: FakeSerper;
let web: FakeSerpWeb;
let server: TestServer | undefined;

beforeAll(async () => {
  [searxng, serper, web] = await Promise.all([startFakeSearxng(), startFakeSerper(), startFakeSerpWeb()]);
});
afterAll(async () => {
  await Promise.all([searxng.close(), serper.close(), web.close()]);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const fake of [searxng, serper, web]) fake.received.length = 0;
});

type Channel = Record<string, unknown>;
const channel = {
  searxng: (extra: Channel = {}) => ({
    name: 'sx',
    capability: 'serp',
    type: 'searxng',
    base_url: searxng.baseUrl,
    ...extra,
  }),
  serper: (extra: Channel = {}) => ({
    name: 'sp',
    capability: 'serp',
    type: 'serper',
    base_url: serper.baseUrl,
    api_key: serper.key,
    ...extra,
  }),
  web: (extra: Channel = {}) => ({
    name: 'pt',
    capability: 'serp',
    type: 'passthrough',
    base_url: web.baseUrl,
    api_key: 'upstream-bearer-secret',
    ...extra,
  }),
};

async function serve(channels: Channel[]): Promise<{ server: TestServer; token: string }> {
  server = await startServer({ channels, 'routing.backoff_ms': 1, 'routing.retries': 1 });
  return { server, token: await server.token() };
}

describe('search channels over HTTP', () => {
  it('serves a search from a Serper-style upstream, in the contract shape', async () => {
    const { server, token } = await serve([channel.serper()]);
    const answer = await server.post(
      '/serp/web',
      { query: 'rust', country: 'de', language: 'de', range: 'w' },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    expectShape(answer.body, SerpResponse);
    expect((answer.body.organic as unknown[]).length).toBeGreaterThan(0);
    expect(serper.received[0]).toMatchObject({
      path: '/search',
      apiKey: serper.key,
      body: { q: 'rust', gl: 'de', hl: 'de', num: 10, page: 1, tbs: 'qdr:w' },
    });
  });

  it('falls back to the next priority when a channel keeps failing, and skips a refused key at once', async () => {
    const { server, token } = await serve([
      channel.serper({ priority: 1 }),
      channel.searxng({ priority: 2 }),
    ]);
    serper.failNext(500, 500);
    const answer = await server.post('/serp/web', { query: 'rust' }, token);
    expect(answer.status, answer.text).toBe(200);
    expect(serper.received).toHaveLength(2);
    expect(searxng.received.length).toBeGreaterThan(0);
    expectShape(answer.body, SerpResponse);

    serper.received.length = 0;
    serper.failNext(401);
    expect((await server.post('/serp/web', { query: 'rust' }, token)).status).toBe(200);
    expect(serper.received).toHaveLength(1);
  });

  it('sends each type to the channels that list it, the local index among them', async () => {
    const { server, token } = await serve([
      channel.searxng({ models: ['search', 'news'] }),
      { name: 'mine', capability: 'serp', type: 'local-index', models: ['places', 'maps'] },
    ]);
    expect((await server.post('/serp/web', { query: 'rust', type: 'news' }, token)).status).toBe(200);
    expect(searxng.received.at(-1)?.params.categories).toBe('news');
    const places = await server.post('/serp/web', { query: 'rust', type: 'places' }, token);
    expect(places.body).toEqual({ places: [] });
    const images = await server.post('/serp/web', { query: 'rust', type: 'images' }, token);
    expectError(images, 503, 'busy');
    expect(images.text).toContain('no serp channel serves images: list it in channels[].models');
  });

  it('passes a request through to an upstream speaking this interface, with its own key', async () => {
    const { server, token } = await serve([channel.web()]);
    const answer = await server.post('/serp/web', { query: 'rust', type: 'videos', number: 5 }, token);
    expect(answer.status, answer.text).toBe(200);
    expect(web.received[0]).toMatchObject({
      path: '/serp/web',
      authorization: 'Bearer upstream-bearer-secret',
      body: { query: 'rust', type: 'videos', number: 5, page: 1, country: 'US', language: 'en' },
    });
    // The client's own token never travels upstream.
    expect(JSON.stringify(web.received)).not.toContain(token);
  });

  it('answers 502 naming no upstream when every channel fails', async () => {
    const { server, token } = await serve([channel.web({ priority: 1 }), channel.serper({ priority: 2 })]);
    web.answerNext('{"organic": [{"title": 1}]}');
    web.failNext(503);
    serper.failNext(500, 500);
    const answer = await server.post('/serp/web', { query: 'rust' }, token);
    expectError(answer, 502, 'upstream_error');
    for (const secret of [serper.key, 'upstream-bearer-secret', '127.0.0.1'])
      expect(answer.text).not.toContain(secret);
  });
});

describe('search channel configuration', () => {
  const load = (channels: Channel[]) => () => loadConfig({ env: {}, overrides: { channels } });

  it('accepts each search channel type and refuses mismatches by key', () => {
    expect(load([channel.searxng(), channel.serper({ base_url: undefined }), channel.web()])).not.toThrow();
    const error = (() => {
      try {
        load([
          { name: 'a', capability: 'serp', type: 'searxng' },
          { name: 'b', capability: 'chat', type: 'serper' },
          { name: 'c', capability: 'serp', type: 'openai-compatible', base_url: 'http://x' },
        ])();
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toContain('channels[0].base_url: is required for type searxng');
    expect(error?.message).toContain('channels[1].capability: serper channels serve serp only');
    expect(error?.message).toContain('channels[2].capability: openai-compatible channels serve chat only');
  });
});
