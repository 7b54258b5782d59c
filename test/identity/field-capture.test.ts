/**
 * Both operations over HTTP on the real server, on the field-capture maker's cards
 * (test/support/idcard-field-capture): a maker written apart from the engine, with its own
 * holders, layouts, type, drawn photographs, lighting and capture, on which nothing in the engine
 * was tuned: a stranger enrolled under a card's number is never scored 70 or more, forged
 * numbers are never answered as valid, and the nation of cards of several groups, photographed
 * or scanned as the maker draws it, is read as printed. How often the engine reads these cards
 * and vouches for their holders is in bench/README.md (identity).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityKey } from '../../src/providers/identity/identity-key.js';
import { IdentityRegistry } from '../../src/providers/identity/registry.js';
import { makeFieldCard, NATIONS, type FieldCard } from '../support/idcard-field-capture/index.js';
import { startServer, type TestServer } from '../support/server.js';

const CHECK = '/identity/idcard/check-1e';
const OCR = '/identity/idcard/ocr';

const dataUrl = (card: FieldCard) =>
  `data:image/${card.image[0] === 0xff ? 'jpeg' : 'png'};base64,${card.image.toString('base64')}`;

describe('the field-capture maker’s cards, held out', () => {
  let server: TestServer;
  let token: string;
  const impostor = makeFieldCard(813, { capture: 'phone' });

  beforeAll(async () => {
    server = await startServer({ 'identity.workers': 2 });
    token = await server.token();
    const registry = new IdentityRegistry(server.services.db, loadIdentityKey(server.config.identity));
    // The card's number enrolled with a stranger's photo.
    await registry.enroll({
      name: impostor.truth.name,
      id_number: impostor.truth.id_number,
      portrait: impostor.stranger,
    });
  });
  afterAll(() => server.close());

  // Held out, the engine does not vouch for most of these holders (bench/README.md, identity:
  // holders at 70 or more on about one card in eight: the maker's drawn holders lie further from
  // their second photo by face descriptors than the makers the line was calibrated on allow);
  // what it must never do on them is vouch for the wrong person or number.
  it('never scores a stranger 70 or more, nor answers a forged number as valid', async () => {
    const [wrongCheck, wrongDate] = [
      makeFieldCard(814, { forge: 'check-character' }),
      makeFieldCard(815, { forge: 'impossible-date' }),
    ];
    const [stranger, checked, verified] = await Promise.all([
      server.post(CHECK, { image_url: dataUrl(impostor) }, token),
      server.post(CHECK, { image_url: dataUrl(wrongCheck) }, token),
      server.post(
        OCR,
        { image_url: dataUrl(wrongDate), name: wrongDate.truth.name, id_card: wrongDate.truth.id_number },
        token,
      ),
    ]);
    for (const answer of [stranger, checked, verified]) expect(answer.status).toBe(200);
    expect(Number(stranger.body.sim ?? 0), 'the stranger').toBeLessThan(70);
    for (const { body } of [checked, verified]) {
      expect(body.result).not.toBe('success');
      expect(String(body.description ?? '')).not.toBe('');
    }
  });

  // Groups of one, two and three characters, among them the rare characters the recogniser
  // misses or misreads alone (祜 of 拉祜, 土 read as 士, 侗 as 何), on the maker's own captures.
  it('reads the nation of each group as printed', async () => {
    const groups: (typeof NATIONS)[number][] = ['汉', '维吾尔', '拉祜', '土', '侗'];
    const cards = groups.map((nation) => makeFieldCard(820 + NATIONS.indexOf(nation), { nation }));
    const answers = await Promise.all(
      cards.map((card) => server.post(CHECK, { image_url: dataUrl(card) }, token)),
    );
    expect(answers.map((a) => a.body.nation)).toEqual(groups);
  }, 180_000);
});
