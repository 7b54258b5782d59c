/**
 * Identity served by an external source of the same interface (a `passthrough` channel): the
 * request goes up in plain text with the channel's key, the answer comes back as sent (sealed
 * for a token with a field key), and an upstream that breaks the contract gives way to the next.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityKey } from '../../src/providers/identity/identity-key.js';
import { FieldKeys } from '../../src/providers/identity/field-keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { decryptAnswer, encryptMembers } from './client-crypto.js';

interface Upstream {
  url: string;
  received: { path: string; body: Record<string, unknown>; authorization?: string }[];
  server: Server;
}

/** An identity service on loopback: answers by the spec's shapes, or `broken` ones. */
async function startUpstream(broken: boolean): Promise<Upstream> {
  const received: Upstream['received'] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      if (broken) return res.end(JSON.stringify({ sim: 'high' }));
      const card = {
        name: '王小明',
        sex: '男',
        nation: '汉',
        birth: '1990-01-08',
        address: '北京市朝阳区建国路88号',
      };
      const answer = req.url?.endsWith('/ocr')
        ? { ...card, id_card: body.id_card, result: 'success', description: 'verified upstream' }
        : {
            ...card,
            id_num: '11010519900108001X',
            sim: 88.5,
            quality: '91',
            portrait: '',
            warnings: '',
            result: 'success',
            description: 'upstream',
          };
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

describe('identity passthrough channels', () => {
  let server: TestServer;
  let good: Upstream;
  let broken: Upstream;

  beforeAll(async () => {
    [good, broken] = await Promise.all([startUpstream(false), startUpstream(true)]);
    server = await startServer({
      'outbound.allow_private': true,
      'routing.retries': 1,
      'routing.backoff_ms': 10,
      channels: [
        { name: 'broken', capability: 'identity', type: 'passthrough', base_url: broken.url, priority: 0 },
        {
          name: 'good',
          capability: 'identity',
          type: 'passthrough',
          base_url: good.url,
          api_key: 'up-key',
          priority: 1,
        },
      ],
    });
  });
  afterAll(async () => {
    await server.close();
    good.server.close();
    broken.server.close();
  });

  it('forwards check-1e, falling back past an upstream that breaks the contract', async () => {
    const token = await server.token();
    const { status, body } = await server.post(
      '/identity/idcard/check-1e',
      { image_url: 'https://cards.example/1.jpg', config: { copy_warn: true } },
      token,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ result: 'success', sim: 88.5, id_num: '11010519900108001X' });
    // Its first try and one retry (routing.retries), then the next channel.
    expect(broken.received).toHaveLength(2);
    expect(good.received[0]).toMatchObject({
      path: '/identity/idcard/check-1e',
      body: { image_url: 'https://cards.example/1.jpg', config: { copy_warn: true } },
      authorization: 'Bearer up-key',
    });
  });

  it('opens encrypted members before forwarding and seals the answer for the token', async () => {
    const token = await server.token();
    const tokenId = (await server.services.tokens.authenticate(`Bearer ${token}`)).id;
    const key = await new FieldKeys(server.services.db, loadIdentityKey(server.config.identity)).rotate(
      tokenId,
    );
    const { values, encryption } = encryptMembers(
      { name: '王小明', id_card: '11010519900108001X' },
      key.key,
      1,
    );
    const { status, body } = await server.post(
      '/identity/idcard/ocr',
      { ...values, image_url: 'https://cards.example/2.jpg', encryption },
      token,
    );
    expect(status).toBe(200);
    const forwarded = good.received.at(-1)!;
    expect(forwarded.body).toEqual({
      name: '王小明',
      id_card: '11010519900108001X',
      image_url: 'https://cards.example/2.jpg',
    });
    expect(decryptAnswer(body, key.key)).toMatchObject({ name: '王小明', id_card: '11010519900108001X' });
  });
});
