/**
 * The two identity operations over HTTP on the real server, the real engine (Tesseract) and the
 * local registry, with synthetic cards: results, warnings, portrait similarity, the encryption
 * member both ways, ndjson stages, and what is a 400 rather than a result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, encodePng } from '../../src/engines/image-codec.js';
import { drawPortrait, makeSpecimen, type Specimen } from '../support/idcard-specimen/index.js';
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
  const stranger = makeSpecimen({ seed: 102 });

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

  it('check-1e reads the card and compares its portrait with the enrolled one', async () => {
    const { status, body } = await server.post(CHECK, { image_url: dataUrl(clean) }, token);
    expect(status).toBe(200);
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

  it('check-1e scores another person under that number below 70', async () => {
    await registry.enroll({
      name: stranger.truth.name,
      id_number: stranger.truth.id_number,
      portrait: portraitPng(clean.person.portraitSeed),
    });
    const { body } = await server.post(CHECK, { image_url: dataUrl(stranger) }, token);
    expect(body.result).toBe('success');
    expect(body.sim).toBeLessThan(70);
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
    const copy = makeSpecimen({ seed: 105, degradations: ['photocopy'] });
    const asked = await server.post(
      CHECK,
      { image_url: dataUrl(copy), config: JSON.stringify({ copy_warn: true, temp_id_warn: true }) },
      token,
    );
    expect(asked.body).toMatchObject({ result: 'ocr_warning', warnings: 'copy_warn' });
    expect(asked.body.description).toContain('copy_warn');
    const silent = await server.post(CHECK, { image_url: dataUrl(copy) }, token);
    expect(silent.body).toMatchObject({ result: 'success', warnings: '' });

    const temporary = makeSpecimen({ seed: 105, degradations: ['temporary'] });
    const temp = await server.post(
      CHECK,
      { image_url: dataUrl(temporary), config: { temp_id_warn: true } },
      token,
    );
    expect(temp.body).toMatchObject({ result: 'ocr_warning', warnings: 'temp_id_warn' });

    const blurred = makeSpecimen({ seed: 104, degradations: ['blur'] });
    const blur = await server.post(CHECK, { image_url: dataUrl(blurred), config: { quality: true } }, token);
    if (blurred.truth.warnings.includes('blur')) {
      expect(Number(blur.body.quality)).toBeLessThan(50);
      expect(blur.body.warnings).toBe('blur_warn');
    } else {
      expect(Number(blur.body.quality)).toBeGreaterThanOrEqual(50);
    }
  });

  it('ocr verifies name and number against the card and the registry', async () => {
    const given = { name: clean.truth.name, id_card: clean.truth.id_number, image_url: dataUrl(clean) };
    const ok = await server.post(OCR, given, token);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      result: 'success',
      name: clean.truth.name,
      id_card: clean.truth.id_number,
      sex: clean.truth.sex,
      birth: clean.truth.birth,
      nation: clean.truth.nation,
      address: clean.truth.address,
    });
    const wrongName = await server.post(OCR, { ...given, name: '诸葛亮' }, token);
    expect(wrongName.body.result).toBe('name_mismatch');
    const wrongNumber = await server.post(OCR, { ...given, id_card: stranger.truth.id_number }, token);
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
    expect(body.result).toBe('success');
    expect(body.name).not.toBe(clean.truth.name);
    expect((body.encryption as { ciphertext_blob: number }[])[0]!.ciphertext_blob).toBe(newest.version);
    expect(decryptAnswer(body, newest.key)).toMatchObject({
      name: clean.truth.name,
      id_card: clean.truth.id_number,
      birth: clean.truth.birth,
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

  it('streams the stages as ndjson, the answer last', async () => {
    const response = await server.send(CHECK, { image_url: dataUrl(clean) }, token, {
      accept: 'application/x-ndjson',
    });
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, -1).map((l) => l.stage)).toEqual(['fetched', 'recognised', 'compared']);
    expect(lines.at(-1)).toMatchObject({ result: 'success', id_num: clean.truth.id_number });
  });

  it('answers no card, bad images and bad members as they are', async () => {
    const noise = encodePng({
      width: 400,
      height: 300,
      data: Uint8Array.from({ length: 400 * 300 * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i * 7919) % 251)),
    });
    const none = await server.post(
      CHECK,
      { image_url: `data:image/png;base64,${noise.toString('base64')}` },
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
