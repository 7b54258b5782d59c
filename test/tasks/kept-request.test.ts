/**
 * The `request` of a retrieved task, in every family: each URL exactly as the client sent it
 * (no `/` added, percent-encoding and host spelling untouched), with only credentials and
 * secret-looking query values replaced, and big inline media reduced to its type and size.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { testProviders } from '../support/test-capability.js';
import { pollTask } from '../support/poll.js';

let server: TestServer;
let receiver: Server;
let hook: string;
let token: string;

beforeAll(async () => {
  receiver = createServer((_, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startServer({ 'outbound.allow_cidrs': ['127.0.0.1/32'] }, { providers: testProviders() });
  token = await server.token();
});
afterAll(async () => {
  await server.close();
  receiver.close();
});

/** Submits, waits for the task to end, and gives back its retrieved record. */
async function kept(family: string, path: string, body: Record<string, unknown>) {
  const answer = await server.post(path, body, token);
  expect(answer.status, answer.text).toBe(200);
  const id = (answer.body.task_id ?? answer.body.id) as string;
  return pollTask(server, family, id, token);
}

const BIG_IMAGE = `data:image/png;base64,${'iVBORw0KGgo'.repeat(2000)}`;

describe('the kept request', () => {
  it('tune: the callback URL as sent, its token hidden', async () => {
    const callback = `${hook}/hooks/Tune%2Fdone?Token=abc&x=a%20b&x=c#frag`;
    const record = await kept('tune', '/tune/audios', {
      action: 'generate',
      prompt: 'a song',
      callback_url: callback,
    });
    const expected = `${hook}/hooks/Tune%2Fdone?Token=redacted&x=a%20b&x=c#frag`;
    expect(record.request).toMatchObject({ prompt: 'a song', callback_url: expected });
    expect((record.callback as { url: string }).url).toBe(expected);
  });

  it('clip: an image URL without a path, one with credentials, and the callback', async () => {
    const record = await kept('clip', '/clip/videos', {
      action: 'image2video',
      start_image_url: 'https://example.com',
      end_image_url: 'https://ann:pw@bücher.example/f%C3%BC.png?X-Amz-Signature=s1&X-Amz-Expires=60',
      callback_url: `${hook}?sig=abc`,
    });
    expect(record.request).toMatchObject({
      start_image_url: 'https://example.com',
      end_image_url: 'https://bücher.example/f%C3%BC.png?X-Amz-Signature=redacted&X-Amz-Expires=60',
      callback_url: `${hook}?sig=redacted`,
    });
  });

  it('dance: image URLs inside content', async () => {
    const record = await kept('dance', '/dance/videos', {
      model: 'dance-1-0-pro-250528',
      content: [
        { type: 'text', text: 'a wave' },
        {
          type: 'image_url',
          image_url: { url: 'https://cdn.example?access_token=t&w=1&w=2' },
          role: 'reference_image',
        },
        { type: 'image_url', image_url: { url: BIG_IMAGE }, role: 'reference_image' },
      ],
      async: true,
    });
    expect(record.request).toMatchObject({
      content: [
        { type: 'text', text: 'a wave' },
        { type: 'image_url', image_url: { url: 'https://cdn.example?access_token=redacted&w=1&w=2' } },
        { image_url: { url: `data:image/png;base64,… (${BIG_IMAGE.length} characters)` } },
      ],
    });
  });

  it('maxi: the first image and the callback', async () => {
    const record = await kept('maxi', '/maxi/videos', {
      model: 'maxi-i2v',
      action: 'generate',
      prompt: 'a lighthouse',
      first_image_url: 'https://example.com/first.png?api_key=k&name=%7eme',
      callback_url: `${hook}/maxi?secret=s#done`,
    });
    expect(record.request).toMatchObject({
      first_image_url: 'https://example.com/first.png?api_key=redacted&name=%7eme',
      callback_url: `${hook}/maxi?secret=redacted#done`,
    });
  });

  it('qrart: the QR content, the content image and the callback', async () => {
    const record = await kept('qrart', '/qrart/tasks', {
      action: 'generate',
      content: 'https://Example.com',
      content_image_url: BIG_IMAGE,
      callback_url: `${hook}/qr?password=p&password=q`,
    });
    expect(record.request).toMatchObject({
      content: 'https://Example.com',
      content_image_url: `data:image/png;base64,… (${BIG_IMAGE.length} characters)`,
      callback_url: `${hook}/qr?password=redacted&password=redacted`,
    });
  });
});
