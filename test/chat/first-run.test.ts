/**
 * Chat on a fresh server, as the README tells it: without a channel, its chat examples answer
 * 503 naming the configuration keys to set (which must be real keys of the schema) and the page
 * that explains them; started with the README's own SWITCHYARD_CHANNELS lines, pointed at a
 * loopback upstream or at a GGUF file, the same examples are answered.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';
import { expectError } from '../support/expect.js';
import { configKeys } from '../../src/config/keys.js';

const README = readFileSync('README.md', 'utf8');

/** The README's chat curl lines: the path after `$B` and the JSON after `-d`. */
const EXAMPLES = [...README.matchAll(/\$B(\/\w+\/chat\/completions) -d '(.+)'$/gm)].map(([, path, body]) => ({
  path: path as string,
  body: JSON.parse(body as string) as { model: string; messages: { content: string }[] },
}));

/** The README's `SWITCHYARD_CHANNELS='…' make run` line for a channel type. */
function channelsLine(type: string): string {
  const line = [...README.matchAll(/^SWITCHYARD_CHANNELS='(.+)' make run$/gm)].find(([, value]) =>
    value?.includes(`type: ${type}`),
  );
  if (!line?.[1]) throw new Error(`README.md has no SWITCHYARD_CHANNELS line for ${type}`);
  return line[1];
}

/** The same line with one member's quoted value replaced, so that it points at this machine. */
function pointed(line: string, member: string, value: string): string {
  const changed = line.replace(new RegExp(`${member}: "[^"]*"`), `${member}: "${value}"`);
  expect(changed, `${member} is written "…" in the README line`).not.toBe(line);
  return changed;
}

const schemaKeys = new Map(configKeys().map((key) => [key.path, key.schema]));

/**
 * The configuration keys a message names (`channels[].type: local-llm`, `tasks.concurrency`), each
 * checked against the schema: the key exists, and a value given with it is one it accepts.
 */
function keysNamed(message: string): string[] {
  const named = [...message.matchAll(/(?<![\w/.-])([a-z_]+(?:\[\])?(?:\.[a-z_]+)+)(?:: ([\w.-]+))?/g)];
  for (const [, path = '', value] of named) {
    const schema = schemaKeys.get(path);
    expect(schema, `${path} is a configuration key`).toBeDefined();
    if (value !== undefined) expect(schema?.enum, `${path} accepts ${value}`).toContain(value);
  }
  return named.map(([text]) => text);
}

/** The pages a message sends the reader to, each of which exists. */
function pagesNamed(message: string): string[] {
  const pages = [...message.matchAll(/docs\/[\w-]+\.md/g)].map(([page]) => page);
  for (const page of pages) expect(existsSync(page), `${page} exists`).toBe(true);
  return pages;
}

const messageOf = (body: Record<string, unknown>) => (body.error as { message: string }).message;

it('the README has both chat examples', () => {
  expect(EXAMPLES.map((e) => e.path)).toEqual(['/chatmodel/chat/completions', '/moon/chat/completions']);
});

describe('a server without chat channels', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.token();
  });
  afterAll(() => server.close());

  it('answers the README examples 503, naming the keys of both ways to serve chat and their pages', async () => {
    for (const { path, body } of EXAMPLES) {
      const answer = await server.post(path, body, token);
      expectError(answer, 503, 'busy');
      const message = messageOf(answer.body);
      expect(message).toContain(`no engine or channel serves ${path}`);
      expect(keysNamed(message)).toEqual(
        expect.arrayContaining([
          'channels[].capability: chat',
          'channels[].type: openai-compatible',
          'channels[].base_url',
          'channels[].type: local-llm',
          'channels[].model_path',
        ]),
      );
      expect(pagesNamed(message)).toEqual(['docs/chat.md', 'docs/local-llm.md']);
    }
  });
});

describe('the README line for an OpenAI-compatible upstream', () => {
  let upstream: FakeUpstream;
  let server: TestServer;
  let token: string;
  const line = channelsLine('openai-compatible');
  const channel = (parseYaml(line) as Record<string, unknown>[])[0] as {
    api_key: string;
    model_map: Record<string, string>;
  };
  beforeAll(async () => {
    upstream = await startFakeUpstream('readme');
    server = await startServer(
      {},
      { env: { SWITCHYARD_CHANNELS: pointed(line, 'base_url', upstream.baseUrl) } },
    );
    token = await server.token();
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it('answers both chat examples through the upstream, under the names asked for', async () => {
    for (const { path, body } of EXAMPLES) {
      const answer = await server.post(path, body, token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.model).toBe(body.model);
      const [choice] = answer.body.choices as { message: { content: string } }[];
      expect(choice?.message.content).toBe(body.messages[0]?.content);
      const sent = upstream.received.at(-1);
      expect(sent?.body.model).toBe(channel.model_map[body.model] ?? body.model);
      expect(sent?.authorization).toBe(`Bearer ${channel.api_key}`);
    }
    expect(upstream.received).toHaveLength(EXAMPLES.length);
  });

  it('answers a model no channel lists 503, naming channels[].models', async () => {
    const channels = [{ ...channel, base_url: upstream.baseUrl, models: ['chatmodel-*'] }];
    const narrow = await startServer({}, { env: { SWITCHYARD_CHANNELS: JSON.stringify(channels) } });
    try {
      const moon = EXAMPLES.find((e) => e.path.startsWith('/moon/'));
      const answer = await narrow.post(moon?.path ?? '', moon?.body, await narrow.token());
      expectError(answer, 503, 'busy');
      const message = messageOf(answer.body);
      expect(message).toContain(`no chat channel serves ${moon?.body.model}`);
      expect(keysNamed(message)).toEqual(['channels[].models', 'channels[].capability: chat']);
      expect(pagesNamed(message)).toEqual(['docs/chat.md', 'docs/local-llm.md']);
    } finally {
      await narrow.close();
    }
  });
});

describe('the README line for a GGUF model file', () => {
  let server: TestServer;
  beforeAll(async () => {
    const model = await writeTinyGguf(mkdtempSync(join(tmpdir(), 'switchyard-readme-llm-')));
    const line = pointed(channelsLine('local-llm'), 'model_path', model);
    server = await startServer({}, { env: { SWITCHYARD_CHANNELS: line } });
  }, 60_000);
  afterAll(() => server.close());

  it('answers both chat examples from the file', async () => {
    const token = await server.token();
    for (const { path, body } of EXAMPLES) {
      // The test model never ends by itself: a cap keeps its answer short.
      const answer = await server.post(path, { ...body, max_tokens: 4 }, token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.model).toBe(body.model);
      expect(answer.body.usage).toMatchObject({ completion_tokens: 4 });
    }
  }, 60_000);
});
