import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.js';
import { chargeFor, priceOf } from '../src/accounts/pricing.js';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-config-'));
function file(text: string): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

describe('configuration', () => {
  it('has embedded defaults', () => {
    const config = loadConfig({ env: {} });
    expect(config.port).toBe(8080);
    expect(config.outbound.allow_private).toBe(false);
    expect(config.database.url).toMatch(/^sqlite:\/.*\/data\/switchyard\.db$/);
    expect(config.public_base_url).toBe('http://127.0.0.1:8080');
    expect(config.limits.body_bytes).toBe(10 * 1024 * 1024);
    expect(priceOf(config.prices, 'serp.web')).toBe(1);
  });

  it('reads a YAML file, then environment overrides, then flags', () => {
    const path = file(
      'port: 9000\npublic_base_url: https://api.example.com/\noutbound:\n  allow_private: false\n',
    );
    const config = loadConfig({
      file: path,
      env: { SWITCHYARD_OUTBOUND__ALLOW_PRIVATE: 'true', SWITCHYARD_LIMITS__SYNC_WAIT_SECONDS: '30' },
      overrides: { data_dir: dir },
    });
    expect(config.port).toBe(9000);
    expect(config.public_base_url).toBe('https://api.example.com');
    expect(config.outbound.allow_private).toBe(true);
    expect(config.limits.sync_wait_seconds).toBe(30);
    expect(config.data_dir).toBe(dir);
    expect(loadConfig({ file: path, env: { SWITCHYARD_PORT: '9100' }, overrides: { port: 9200 } }).port).toBe(
      9200,
    );
  });

  it('takes the file from SWITCHYARD_CONFIG', () => {
    expect(loadConfig({ env: { SWITCHYARD_CONFIG: file('port: 7000\n') } }).port).toBe(7000);
  });

  it('merges prices over the defaults, per model and action', () => {
    const config = loadConfig({
      env: {},
      file: file(
        'prices:\n  serp.web: 4\n  tune.audios: { default: 7, models: { tune-v5: 12 }, actions: { concat: 1 } }\n',
      ),
    });
    expect(priceOf(config.prices, 'serp.web')).toBe(4);
    expect(priceOf(config.prices, 'tune.audios', 'tune-v5', 'generate')).toBe(12);
    expect(priceOf(config.prices, 'tune.audios', 'tune-v4', 'concat')).toBe(1);
    expect(priceOf(config.prices, 'tune.audios', 'tune-v4', 'generate')).toBe(7);
    expect(priceOf(config.prices, 'chat.moon')).toBe(0);
  });

  it('charges chat by tokens: a hold up front, the usage after', () => {
    const config = loadConfig({ env: {} });
    const body = {
      model: 'moon-k2.5',
      messages: [{ role: 'user', content: 'x'.repeat(3000) }],
      max_tokens: 1000,
      n: 2,
    };
    const charge = chargeFor(config.prices, 'chat.moon', body);
    // At most 1016 prompt tokens at 1 per 1000 and 2000 completion tokens at 2 per 1000.
    expect(charge.hold).toBe(6);
    expect(charge.actual({ prompt_tokens: 900, completion_tokens: 300 })).toBe(2);
    expect(charge.actual(undefined)).toBe(6);
    expect(chargeFor(config.prices, 'serp.web', {}).actual(undefined)).toBe(1);
  });

  it('reports every problem by key', () => {
    const path = file(
      'port: 99999\nprots: 1\noutbound:\n  allow_private: maybe\nchannels:\n  - { name: a, capability: chat, type: openai-compatible, base_url: ftp://x }\nprices:\n  serp.web: -1\n',
    );
    let message = '';
    try {
      loadConfig({ file: path, env: {} });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const expected of [
      'port: must be at most 65535',
      'prots: is not a known field',
      'outbound.allow_private: must be boolean',
      'channels[0].base_url: must be an http(s) URL',
      'prices.serp.web: must be a number of credits',
    ]) {
      expect(message).toContain(expected);
    }
  });

  it('refuses a channel key that cannot travel in an HTTP header', () => {
    const channel = (key: string) =>
      file(
        `channels:\n  - { name: a, capability: chat, type: openai-compatible, base_url: http://x, api_key: "${key}" }\n`,
      );
    expect(() => loadConfig({ file: channel('sk-clé'), env: {} })).toThrow(
      'channels[0].api_key: must be visible ASCII characters (it is sent in an HTTP header)',
    );
    expect(() => loadConfig({ file: channel('sk-a b'), env: {} })).toThrow(/channels\[0\]\.api_key/);
    expect(loadConfig({ file: channel('AK1:sk-Zz_09.~+/='), env: {} }).channels[0]?.api_key).toBe(
      'AK1:sk-Zz_09.~+/=',
    );
  });

  it('takes trusted proxies as addresses and ranges, and names a wrong one by key', () => {
    expect(loadConfig({ env: {} }).trust_proxy).toBe(false);
    const listed = loadConfig({
      env: { SWITCHYARD_TRUST_PROXY: '[127.0.0.1, 10.0.0.0/8, fd00::/8, loopback]' },
    });
    expect(listed.trust_proxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', 'loopback']);
    expect(loadConfig({ env: { SWITCHYARD_TRUST_PROXY: 'true' } }).trust_proxy).toBe(true);
    expect(() =>
      loadConfig({ env: {}, overrides: { trust_proxy: ['10.0.0.1', '10.0.0.0/33', 'nginx'] } }),
    ).toThrow(
      /trust_proxy\[1\]: 10\.0\.0\.0\/33 is not an address, a CIDR range.*\n\s+trust_proxy\[2\]: nginx is not/,
    );
    expect(() => loadConfig({ env: { SWITCHYARD_TRUST_PROXY: '10.0.0.0/8' } })).toThrow(
      'trust_proxy: must be true, false or a list of addresses and CIDR ranges',
    );
  });

  it('refuses a credit hold shorter than the longest synchronous wait, naming both settings', () => {
    expect(() => loadConfig({ env: {}, overrides: { 'limits.hold_seconds': 600 } })).toThrow(
      'limits.hold_seconds: 600 must be longer than the longest synchronous wait, 600 s (limits.sync_wait_seconds)',
    );
    expect(loadConfig({ env: {}, overrides: { 'limits.hold_seconds': 601 } }).limits.hold_seconds).toBe(601);
  });

  const withChannels = (hold: number, ...channels: string[]) =>
    file(`limits: { hold_seconds: ${hold} }\nchannels:\n${channels.map((c) => `  - ${c}\n`).join('')}`);
  const chat = (name: string, timeout: number) =>
    `{ name: ${name}, capability: chat, type: openai-compatible, base_url: http://x, timeout_seconds: ${timeout} }`;

  it('counts every try of a synchronous call through its channels: retries, backoff and fallbacks', () => {
    // One try of 300 s fits a 900 s hold; three (routing.retries: 2) and their pauses do not.
    expect(() => loadConfig({ file: withChannels(900, chat('a', 300)), env: {} })).toThrow(
      'limits.hold_seconds: 900 must be longer than the longest synchronous wait, 900.6 s (chat through ' +
        'channels[0].timeout_seconds, each tried routing.retries + 1 = 3 times, routing.backoff_ms between tries)',
    );
    // A call that fails over goes on to the next channel of its family.
    const two = withChannels(1201, chat('a', 200), chat('b', 200));
    expect(() => loadConfig({ file: two, env: {} })).toThrow(
      /wait, 1201\.2 s \(chat through channels\[0\]\.timeout_seconds \+ channels\[1\]\.timeout_seconds,/,
    );
    expect(
      loadConfig({ file: withChannels(1202, chat('a', 200), chat('b', 200)), env: {} }).channels,
    ).toHaveLength(2);
  });

  it('leaves out the channels of families answered only as tasks, which hold no credits', () => {
    const video = '{ name: v, capability: clip, type: kling, api_key: k, timeout_seconds: 3600 }';
    expect(loadConfig({ file: withChannels(3600, video), env: {} }).channels[0]?.timeout_seconds).toBe(3600);
  });

  it('names a missing or broken file', () => {
    expect(() => loadConfig({ file: join(dir, 'absent.yaml'), env: {} })).toThrow(/absent.yaml: ENOENT/);
    expect(() => loadConfig({ file: file('port: [1\n'), env: {} })).toThrow(/not valid YAML/);
    expect(() => loadConfig({ file: file('- a\n- b\n'), env: {} })).toThrow(/mapping/);
  });
});
