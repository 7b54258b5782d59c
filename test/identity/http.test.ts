/**
 * The two identity operations over HTTP on the real server, the real engine (Tesseract) and the
 * local registry, with synthetic cards: results, warnings, portrait similarity, the encryption
 * member both ways, ndjson stages, and what is a 400 rather than a result. (A stranger enrolled
 * under the card's number, answered success with sim below 70, is in other-print.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, encodePng } from '../../src/engines/image-codec.js';
import {
  drawPortrait,
  fictionalPerson,
  makeSpecimen,
  type Specimen,
} from '../support/idcard-specimen/index.js';
import { loadIdentityKey } from '../../src/providers/identity/identity-key.js';
import { IdentityRegistry } from '../../src/providers/identity/registry.js';
import { FieldKeys } from '../../src/providers/identity/field-keys.js';
import { startServer, type TestServer } from '../support/server.js';
import { decryptAnswer, encryptMembers } from './client-crypto.js';

const CHECK = '/identity/idcard/check-1e';
const OCR = '/identity/idcard/ocr';

const dataUrl = (specimen: Specimen) =>
  `data:image/${specimen.image[0] === 0xff ? 'jpeg' : 'png'};base64,${specimen.image.toString('base64')}`;
const portraitPng = (seed: number) => encodePng(drawPortrait(seed, 1));

describe('identity over HTTP', () => {
  let server: TestServer;
  let token: string;
  let registry: IdentityRegistry;
  const clean = makeSpecimen({ seed: 105 });

  beforeAll(async () => {
    server = await startServer({ 'identity.workers': 2 });
    token = await server.token();
    registry = new IdentityRegistry(server.services.db, loadIdentityKey(server.config.identity));
    await registry.enroll({
      name: clean.truth.name,
      id_number: clean.truth.id_number,
      portrait: portraitPng(clean.person.portraitSeed),
    });
  });
  afterAll(() => server.close());

  it('check-1e reads the card and compares its portrait with the enrolled one, its stages streamed as ndjson', async () => {
    const response = await server.send(CHECK, { image_url: dataUrl(clean) }, token, {
      accept: 'application/x-ndjson',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, -1).map((l) => l.stage)).toEqual(['fetched', 'recognised', 'compared']);
    const body = lines.at(-1)!;
    expect(body).toMatchObject({
      result: 'success',
      name: clean.truth.name,
      sex: clean.truth.sex,
      nation: clean.truth.nation,
      birth: clean.truth.birth,
      address: clean.truth.address,
      id_num: clean.truth.id_number,
      warnings: '',
    });
    expect(body.sim).toBeGreaterThanOrEqual(70);
    expect(Number(body.quality)).toBeGreaterThanOrEqual(50);
    const portrait = decodeImage(Buffer.from(String(body.portrait), 'base64'), 1e7);
    expect(portrait.width).toBeGreaterThan(100);
    expect(body.description).toMatch(/similarity/);
  });

  it('check-1e answers not_enrolled and no_reference_portrait as results', async () => {
    const unknown = makeSpecimen({ seed: 103 });
    const first = await server.post(CHECK, { image_url: dataUrl(unknown) }, token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ result: 'not_enrolled', id_num: unknown.truth.id_number });
    expect(first.body.sim).toBeUndefined();
    await registry.enroll({ name: unknown.truth.name, id_number: unknown.truth.id_number });
    const second = await server.post(CHECK, { image_url: dataUrl(unknown) }, token);
    expect(second.body.result).toBe('no_reference_portrait');
  });

  it('raises the warnings asked for, and only those', async () => {
    // A temporary photocopy fires both of these, asked for in config as a JSON string.
    const copy = makeSpecimen({ seed: 105, degradations: ['temporary', 'photocopy'] });
    const both = await server.post(
      CHECK,
      { image_url: dataUrl(copy), config: JSON.stringify({ copy_warn: true, temp_id_warn: true }) },
      token,
    );
    expect(both.body).toMatchObject({ result: 'ocr_warning', warnings: 'copy_warn,temp_id_warn' });
    expect(both.body.description).toContain('copy_warn');

    // A blurred temporary card in colour: blur_warn, and neither the temporary card (fired, not
    // asked for) nor the copy (asked for, not fired).
    const blurred = makeSpecimen({ seed: 105, degradations: ['temporary', 'blur'] });
    expect(blurred.truth.warnings).toContain('blur');
    const blur = await server.post(
      CHECK,
      { image_url: dataUrl(blurred), config: { quality: true, copy_warn: true } },
      token,
    );
    expect(Number(blur.body.quality)).toBeLessThan(50);
    expect(blur.body).toMatchObject({ result: 'ocr_warning', warnings: 'blur_warn' });
  });

  it('ocr verifies name and number against the card and the registry', async () => {
    // Its success, the members of the card all read, is the encrypted request's below.
    const given = { name: clean.truth.name, id_card: clean.truth.id_number, image_url: dataUrl(clean) };
    const wrongName = await server.post(OCR, { ...given, name: '诸葛亮' }, token);
    expect(wrongName.status).toBe(200);
    expect(wrongName.body.result).toBe('name_mismatch');
    const wrongNumber = await server.post(OCR, { ...given, id_card: fictionalPerson(102).idNumber }, token);
    expect(wrongNumber.body.result).toBe('id_number_mismatch');
    await registry.update(clean.truth.id_number, { name: '另一个' });
    const record = await server.post(OCR, given, token);
    expect(record.body.result).toBe('record_mismatch');
    await registry.update(clean.truth.id_number, { name: clean.truth.name });
  });

  it('opens encrypted members and seals the answer with the token key', async () => {
    const own = await server.token();
    const tokenId = (await server.services.tokens.authenticate(`Bearer ${own}`)).id;
    const keys = new FieldKeys(server.services.db, loadIdentityKey(server.config.identity));
    const old = await keys.rotate(tokenId);
    const newest = await keys.rotate(tokenId);
    const { values, encryption } = encryptMembers(
      { name: clean.truth.name, id_card: clean.truth.id_number },
      old.key,
      old.version,
    );
    const { status, body } = await server.post(
      OCR,
      { ...values, image_url: dataUrl(clean), encryption },
      own,
    );
    expect(status).toBe(200);
    // The sex and nation are not sealed.
    expect(body).toMatchObject({ result: 'success', sex: clean.truth.sex, nation: clean.truth.nation });
    expect(body.name).not.toBe(clean.truth.name);
    expect((body.encryption as { ciphertext_blob: number }[])[0]!.ciphertext_blob).toBe(newest.version);
    expect(decryptAnswer(body, newest.key)).toEqual({
      name: clean.truth.name,
      id_card: clean.truth.id_number,
      birth: clean.truth.birth,
      address: clean.truth.address,
    });

    const check = await server.post(CHECK, { image_url: dataUrl(clean) }, own);
    const opened = decryptAnswer(check.body, newest.key);
    expect(opened.id_num).toBe(clean.truth.id_number);
    expect(opened.portrait!.length).toBeGreaterThan(100);

    const tampered = await server.post(
      OCR,
      {
        ...values,
        image_url: dataUrl(clean),
        encryption: [{ ...encryption[0], tag_list: ['AAAA', 'AAAA'] }],
      },
      own,
    );
    expect(tampered.status).toBe(400);
    expect(tampered.text).toContain('name');
  });

  it('answers no card, bad images and bad members as they are', async () => {
    // A picture of nothing: smooth colour gradients. (Noise would do as well, but Tesseract takes
    // seconds over it, reading stray characters in every turn of it.)
    const [width, height] = [320, 240];
    const picture = encodePng({
      width,
      height,
      data: Uint8Array.from({ length: width * height * 4 }, (_, i) => {
        const [x, y, c] = [(i >> 2) % width, Math.floor(i / 4 / width), i % 4];
        return [60 + x / 2, 110 + y / 3, 170 - x / 4, 255][c]!;
      }),
    });
    const none = await server.post(
      CHECK,
      { image_url: `data:image/png;base64,${picture.toString('base64')}` },
      token,
    );
    expect(none.status).toBe(200);
    expect(none.body.result).toBe('card_not_found');

    const text = await server.post(CHECK, { image_url: 'data:text/plain,hello' }, token);
    expect(text.status).toBe(400);
    expect(text.text).toContain('image_url');

    const format = await server.post(
      OCR,
      { name: '张三', id_card: '12345', image_url: dataUrl(clean) },
      token,
    );
    expect(format.status).toBe(400);
    expect(format.text).toContain('id_card');

    const flag = await server.post(CHECK, { image_url: dataUrl(clean), config: { sharpen: true } }, token);
    expect(flag.status).toBe(400);
    expect(flag.text).toContain('sharpen');
  });
});
