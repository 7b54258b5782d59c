/**
 * A number is what the card says: cards printed with a number that is wrong in one position
 * (in each part of it: the region, the year, month and day, the sequence and the check
 * character) are read back as printed, so that they break GB 11643, and both operations answer invalid_id_number, even where changing one digit
 * would make the number check. The reader must never repair a number into a valid one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDigit, parseIdNumber } from '../../src/engines/idcard/id-number.js';
import { readCard } from '../../src/engines/idcard/ocr/index.js';
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
    server = await startServer({ 'identity.workers': 1 });
    token = await server.token();
  });
  afterAll(() => server.close());

  it('reads a number wrong in any of its parts as printed, a number that breaks the rules', async () => {
    // The reader's number is what both operations answer from (invalid_id_number below): read
    // here directly, without the server's image checks and portrait, which play no part in it.
    // The reader knows nothing of positions: one in each part of the number, the first and the
    // last (at the ends of the crop) among them, stands for every other.
    const positions = [0, 5, 7, 10, 13, 16, 17];
    const read: string[] = [];
    const expected: string[] = [];
    for (const at of positions) {
      const seed = 7300 + at;
      const card = printedWith(seed, wrongAt(fictionalPerson(seed).idNumber, at));
      const number = (await readCard(card.canvas)).fields.id_number;
      read.push(`${at}: ${number} ${parseIdNumber(number).ok ? 'valid' : 'invalid'}`);
      expected.push(`${at}: ${card.truth.id_number} invalid`);
    }
    expect(read).toEqual(expected);
    // Seven cards read: 10 s on a slow day, several times that beside other files.
  }, 180_000);

  it('both operations answer invalid_id_number for a number one substitution away from a valid one', async () => {
    // 210102200106153570 fails its check; 210102200106153579 is valid, one digit away.
    const forged = '210102200106153570';
    expect(parseIdNumber(forged).ok).toBe(false);
    expect(parseIdNumber(forged.slice(0, 17) + '9').ok).toBe(true);
    const card = printedWith(7400, forged);
    const [ocr, check] = await Promise.all([
      server.post(OCR, { image_url: dataUrl(card), name: card.truth.name, id_card: forged }, token),
      server.post(CHECK, { image_url: dataUrl(card) }, token),
    ]);
    expect(ocr.status).toBe(200);
    expect(ocr.body).toMatchObject({ result: 'invalid_id_number', id_card: forged });
    expect(ocr.body.description).toMatch(/check digit should be/);
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ result: 'invalid_id_number', id_num: forged });
    expect(check.body.description).toMatch(/GB 11643/);
    expect(check.body.description).toContain('The check digit should be 9, not 0.');
  });
});
