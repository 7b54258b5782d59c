/**
 * A number is what the card says: cards printed with a number that is wrong in one position
 * (each of the 18 in turn, the check character included) are read back as printed and answered
 * invalid_id_number by both operations, even where changing one digit would make the number
 * check. The reader must never repair a number into a valid one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDigit, parseIdNumber } from '../../src/engines/idcard/id-number.js';
import { fictionalPerson, makeSpecimen, type Specimen } from '../support/idcard-specimen/index.js';
import { startServer, type TestServer } from '../support/server.js';

const CHECK = '/identity/idcard/check-1e';
const OCR = '/identity/idcard/ocr';

const dataUrl = (specimen: Specimen) => `data:image/png;base64,${specimen.image.toString('base64')}`;

/** The number with position `at` changed to the first character after it that breaks the check. */
function wrongAt(number: string, at: number): string {
  const alphabet = at === 17 ? '0123456789X' : '0123456789';
  for (let k = 1; k < alphabet.length; k++) {
    const char = alphabet[(alphabet.indexOf(number[at]!) + k) % alphabet.length]!;
    const forged = number.slice(0, at) + char + number.slice(at + 1);
    if (checkDigit(forged.slice(0, 17)) !== forged[17]) return forged;
  }
  throw new Error(`no wrong character at ${at} of ${number}`);
}

/** A card printed with `number` instead of its holder's own. */
const printedWith = (seed: number, number: string) =>
  makeSpecimen({ seed, person: { ...fictionalPerson(seed), idNumber: number } });

describe('a number wrong in one position', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer({ 'identity.workers': 2 });
    token = await server.token();
  });
  afterAll(() => server.close());

  it('check-1e reads each of the 18 positions as printed and answers invalid_id_number', async () => {
    const cards = Array.from({ length: 18 }, (_, at) => {
      const seed = 7300 + at;
      return { at, card: printedWith(seed, wrongAt(fictionalPerson(seed).idNumber, at)) };
    });
    const answers = await Promise.all(
      cards.map(({ card }) => server.post(CHECK, { image_url: dataUrl(card) }, token)),
    );
    const read = answers.map(
      ({ body }, i) => `${cards[i]!.at}: ${String(body.id_num)} ${String(body.result)}`,
    );
    const expected = cards.map(({ at, card }) => `${at}: ${card.truth.id_number} invalid_id_number`);
    expect(read).toEqual(expected);
    for (const { body } of answers) expect(body.description).toMatch(/GB 11643/);
    // Eighteen cards read on two workers: 16 s alone on a slow day, twice that beside another file.
  }, 120_000);

  it('ocr answers invalid_id_number for a number one substitution away from a valid one', async () => {
    // 210102200106153570 fails its check; 210102200106153579 is valid, one digit away.
    const forged = '210102200106153570';
    expect(parseIdNumber(forged).ok).toBe(false);
    expect(parseIdNumber(forged.slice(0, 17) + '9').ok).toBe(true);
    const seed = 7400;
    const card = printedWith(seed, forged);
    const numbers = [forged, wrongAt(fictionalPerson(seed + 1).idNumber, 14)];
    const cards = [card, printedWith(seed + 1, numbers[1]!)];
    const answers = await Promise.all(
      cards.map((c, i) =>
        server.post(OCR, { image_url: dataUrl(c), name: c.truth.name, id_card: numbers[i] }, token),
      ),
    );
    for (const [i, { status, body }] of answers.entries()) {
      expect(status).toBe(200);
      expect(body).toMatchObject({ result: 'invalid_id_number', id_card: numbers[i] });
      expect(body.description).toMatch(/check digit should be/);
    }
    const check = await server.post(CHECK, { image_url: dataUrl(card) }, token);
    expect(check.body).toMatchObject({ result: 'invalid_id_number', id_num: forged });
    expect(check.body.description).toContain('The check digit should be 9, not 0.');
  });
});
