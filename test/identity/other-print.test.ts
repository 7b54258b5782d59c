/**
 * check-1e on another printer's cards (test/support/idcard-other-print: its own layout, type,
 * stock and photo placement, photographed by a phone or scanned) over HTTP on the real server:
 * the number and the short fields read (the address, the longest, is measured in bench/identity),
 * the portrait cut, the holder scored 70 or more against the enrolled portrait and a stranger
 * enrolled under that number below 70.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/engines/image-codec.js';
import { loadIdentityKey } from '../../src/providers/identity/identity-key.js';
import { IdentityRegistry } from '../../src/providers/identity/registry.js';
import { drawPortrait } from '../support/idcard-specimen/index.js';
import { makeOtherCard, type OtherCard } from '../support/idcard-other-print/index.js';
import { startServer, type TestServer } from '../support/server.js';

const CHECK = '/identity/idcard/check-1e';

const dataUrl = (card: OtherCard) =>
  `data:image/${card.image[0] === 0xff ? 'jpeg' : 'png'};base64,${card.image.toString('base64')}`;

describe('check-1e on another printer’s cards', () => {
  let server: TestServer;
  let token: string;
  const cards = [
    makeOtherCard({ seed: 801, capture: 'phone' }),
    makeOtherCard({ seed: 802, capture: 'scan' }),
    makeOtherCard({ seed: 803, capture: 'phone' }),
  ];

  beforeAll(async () => {
    server = await startServer({ 'identity.workers': 1 });
    token = await server.token();
    const registry = new IdentityRegistry(server.services.db, loadIdentityKey(server.config.identity));
    // The first two enrolled with their own portraits, the third with the first one's.
    for (const [i, card] of cards.entries())
      await registry.enroll({
        name: card.truth.name,
        id_number: card.truth.id_number,
        portrait: encodePng(drawPortrait(cards[i === 2 ? 0 : i]!.person.portraitSeed, 1)),
      });
  });
  afterAll(() => server.close());

  it('reads the card, cuts the portrait and tells the holder from a stranger', async () => {
    const answers = await Promise.all(
      cards.map((card) => server.post(CHECK, { image_url: dataUrl(card) }, token)),
    );
    for (const [i, { status, body }] of answers.entries()) {
      const { truth } = cards[i]!;
      expect(status).toBe(200);
      expect(body).toMatchObject({
        result: 'success',
        name: truth.name,
        sex: truth.sex,
        nation: truth.nation,
        birth: truth.birth,
        id_num: truth.id_number,
      });
      expect(String(body.portrait).length, `portrait of card ${i}`).toBeGreaterThan(0);
    }
    expect(answers[0]!.body.sim).toBeGreaterThanOrEqual(70);
    expect(answers[1]!.body.sim).toBeGreaterThanOrEqual(70);
    expect(answers[2]!.body.sim).toBeLessThan(70);
  });
});
