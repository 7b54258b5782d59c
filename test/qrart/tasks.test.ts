/**
 * /qrart/tasks on the local renderer, over HTTP: generate (waited for), retrieve and
 * retrieve_batch, the image read back from /files and decoded by two independent decoders (and
 * by zbar for text beyond ASCII), seeds, a content image sent as a data: URL, and bad input named
 * by field.
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { expectError } from '../support/expect.js';
import { decodeWithJsqr, decodeWithZbar, decodeWithZxing } from '../support/qr-decoders.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.token();
});
afterAll(() => server.close());

type Task = { id: string; request: Record<string, unknown>; response: Record<string, unknown> };

async function generate(body: Record<string, unknown>): Promise<Task> {
  const answer = await server.post('/qrart/tasks', { action: 'generate', ...body }, token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as unknown as Task;
}

async function image(task: Task): Promise<Buffer> {
  const response = await fetch(String(task.response.image_url));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  return Buffer.from(await response.arrayBuffer());
}

async function expectDecodes(png: Buffer, payload: string): Promise<void> {
  expect(decodeWithJsqr(png)).toBe(payload);
  expect(await decodeWithZxing(png)).toBe(payload);
}

/** A small PNG as a data: URL: a colourful gradient. */
function dataUrlImage(): string {
  const png = new PNG({ width: 120, height: 90 });
  for (let y = 0; y < 90; y += 1)
    for (let x = 0; x < 120; x += 1) {
      const o = (y * 120 + x) * 4;
      png.data[o] = x * 2;
      png.data[o + 1] = y * 2;
      png.data[o + 2] = 255 - x;
      png.data[o + 3] = 255;
    }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

describe('/qrart/tasks on the local renderer', () => {
  it('generates a PNG of the size asked that decodes to the payload', async () => {
    const task = await generate({
      content: 'someone@example.com',
      type: 'email',
      aspect_ratio: '16:9',
      seed: 42,
      prompt: 'a letter, a heron and a zorblax',
    });
    expect(task.response).toMatchObject({
      success: true,
      seed: 42,
      image_width: 1008,
      image_height: 576,
      unknown_nouns: ['zorblax'],
      // A noun no drawing names, drawn as the more general word WordNet gives for it.
      stand_ins: [{ noun: 'heron', drawn_as: 'bird' }],
    });
    const png = await image(task);
    expect(PNG.sync.read(png)).toMatchObject({ width: 1008, height: 576 });
    await expectDecodes(png, 'mailto:someone@example.com');
  });

  it('encodes each type as phones and mail clients expect', async () => {
    const cases = [
      ['link', 'https://example.com/a?b=c', 'https://example.com/a?b=c'],
      ['text', 'plain words, ünïcödé 漢字', 'plain words, ünïcödé 漢字'],
      ['phone', '+15551234567', 'tel:+15551234567'],
      ['sms', '+15551234567', 'SMSTO:+15551234567'],
    ] as const;
    for (const [type, content, payload] of cases) {
      await expectDecodes(await image(await generate({ content, type, seed: 3 })), payload);
    }
  });

  it('marks text beyond ASCII as UTF-8, so that zbar reads it exactly', async () => {
    // Without the ECI designator zbar took these bytes for Shift-JIS: "Hello 荳也阜".
    const png = await image(await generate({ content: 'Hello 世界', seed: 8 }));
    expect(await decodeWithZbar(png)).toBe('Hello 世界');
  });

  it('is reproducible by seed, and reports the seed it chose', async () => {
    const body = { content: 'same', prompt: 'green forest', pixel_style: 'dot', seed: 1234 };
    const [a, b] = [await generate(body), await generate(body)];
    expect((await image(a)).equals(await image(b))).toBe(true);
    const c = await generate({ ...body, seed: 1235 });
    expect((await image(a)).equals(await image(c))).toBe(false);
    const chosen = await generate({ content: 'no seed' });
    expect(chosen.response.seed).toEqual(expect.any(Number));
    expect(chosen.response.seed as number).toBeGreaterThanOrEqual(1);
  });

  it('retrieves one task and a batch', async () => {
    const [a, b] = [
      await generate({ content: 'first', seed: 1 }),
      await generate({ content: 'second', seed: 2 }),
    ];
    const one = await server.post('/qrart/tasks', { action: 'retrieve', id: a.id }, token);
    expect(one.body).toMatchObject({ id: a.id, response: a.response, request: { content: 'first' } });
    const batch = await server.post('/qrart/tasks', { action: 'retrieve_batch', ids: [a.id, b.id] }, token);
    expect(batch.status).toBe(200);
    expect(JSON.stringify(batch.body)).toContain(String(b.response.image_url));
  });

  it('blends a content image into the code, which still scans', async () => {
    const task = await generate({ content: 'blended', content_image_url: dataUrlImage(), qrw: 2, seed: 9 });
    await expectDecodes(await image(task), 'blended');
  });

  it('refuses a content image that is not an image, and content too dense for its canvas', async () => {
    const notImage = await server.post(
      '/qrart/tasks',
      {
        content: 'x',
        content_image_url: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`,
      },
      token,
    );
    expectError(notImage, 400, 'bad_request');
    // The task ran and failed: its error names the field and the rule.
    expect((notImage.body.error as { message: string }).message).toBe(
      'content_image_url: must be a PNG or JPEG image',
    );
    const dense = await server.post(
      '/qrart/tasks',
      {
        content: 'x'.repeat(1200),
        ecl: 'H',
        aspect_ratio: '16:9',
        position: 'top-left',
        padding_level: '20',
      },
      token,
    );
    expectError(dense, 400, 'bad_request');
    expect((dense.body.error as { message: string }).message).toMatch(
      /^content: a 173×173 code does not fit 1008×576 with 2-pixel modules; shorten content, lower ecl or padding_level$/,
    );
  });
});
