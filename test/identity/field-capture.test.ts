/**
 * Both operations over HTTP on the real server, on the field-capture maker's cards
 * (test/support/idcard-field-capture): a maker written apart from the engine, with its own
 * holders, layouts, type, drawn photographs, lighting and capture, on which nothing in the engine
 * was tuned. The holder scored 70 or more against their enrolled second photo, a stranger enrolled
 * under the number below 70, its forged numbers answered invalid_id_number, and the nation read
 * on cards of groups whose names are one, two and three characters long. These tests state what
 * the engine should do; bench/README.md says how often it does on this maker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityKey } from '../../src/providers/identity/identity-key.js';
import { IdentityRegistry } from '../../src/providers/identity/registry.js';
import { makeFieldCard, type FieldCard } from '../support/idcard-field-capture/index.js';
import { startServer, type TestServer } from '../support/server.js';

const CHECK = '/identity/idcard/check-1e';
const OCR = '/identity/idcard/ocr';

const dataUrl = (card: FieldCard) =>
  `data:image/${card.image[0] === 0xff ? 'jpeg' : 'png'};base64,${card.image.toString('base64')}`;

describe('the field-capture maker’s cards, held out', () => {
  let server: TestServer;
  let token: string;
  const holders = [makeFieldCard(811, { capture: 'phone' }), makeFieldCard(812, { capture: 'scan' })];
  const impostor = makeFieldCard(813, { capture: 'phone' });

  beforeAll(async () => {
    server = await startServer({ 'identity.workers': 2 });
    token = await server.token();
    const registry = new IdentityRegistry(server.services.db, loadIdentityKey(server.config.identity));
    for (const card of holders)
      await registry.enroll({
        name: card.truth.name,
        id_number: card.truth.id_number,
        portrait: card.reference,
      });
    // The third card's number enrolled with a stranger's photo.
    await registry.enroll({
      name: impostor.truth.name,
      id_number: impostor.truth.id_number,
      portrait: impostor.stranger,
    });
  });
  afterAll(() => server.close());

  it('reads the holder’s card and scores them 70 or more, a stranger below 70', async () => {
    const cards = [...holders, impostor];
    const answers = await Promise.all(
      cards.map((card) => server.post(CHECK, { image_url: dataUrl(card) }, token)),
    );
    for (const [i, { status, body }] of answers.entries()) {
      const { truth } = cards[i]!;
      expect(status).toBe(200);
      expect(body, `card ${i}`).toMatchObject({
        result: 'success',
        name: truth.name,
        sex: truth.sex,
        nation: truth.nation,
        birth: truth.birth,
        address: truth.address,
        id_num: truth.id_number,
      });
      expect(String(body.portrait).length, `portrait of card ${i}`).toBeGreaterThan(0);
    }
    expect(answers[0]!.body.sim, 'holder of card 0').toBeGreaterThanOrEqual(70);
    expect(answers[1]!.body.sim, 'holder of card 1').toBeGreaterThanOrEqual(70);
    expect(answers[2]!.body.sim, 'stranger').toBeLessThan(70);
  });

  it('answers a forged number invalid_id_number, read as printed', async () => {
    // A wrong check character to check-1e, an impossible date to ocr.
    const [wrongCheck, wrongDate] = [
      makeFieldCard(814, { forge: 'check-character' }),
      makeFieldCard(815, { forge: 'impossible-date' }),
    ];
    const [checked, verified] = await Promise.all([
      server.post(CHECK, { image_url: dataUrl(wrongCheck) }, token),
      server.post(
        OCR,
        { image_url: dataUrl(wrongDate), name: wrongDate.truth.name, id_card: wrongDate.truth.id_number },
        token,
      ),
    ]);
    expect(checked.body).toMatchObject({ result: 'invalid_id_number', id_num: wrongCheck.forged!.printed });
    expect(verified.body).toMatchObject({ result: 'invalid_id_number', id_card: wrongDate.forged!.printed });
  });

  it('reads the nation of each group as printed', async () => {
    // Names of one, two and three characters (every group: bench/identity.mjs --per-nation).
    const nations = ['回', '土家', '维吾尔', '鄂温克'];
    const cards = nations.map((nation, i) => makeFieldCard(820 + i, { nation }));
    const answers = await Promise.all(
      cards.map((card) =>
        server.post(
          OCR,
          { image_url: dataUrl(card), name: card.truth.name, id_card: card.truth.id_number },
          token,
        ),
      ),
    );
    expect(answers.map(({ body }) => body.nation)).toEqual(nations);
    // Not enrolled: the card itself holds up, and the source does not know the number.
    for (const { body } of answers) expect(body.result).toBe('not_enrolled');
  });
});
