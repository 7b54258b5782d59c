/**
 * The field-capture card maker (test/support/idcard-field-capture) checked on its own, before
 * the engine is judged on its cards: numbers that keep GB 11643 (against the standard's own
 * worked examples), forgeries that break it, every nationality, the number as printed read back
 * by Tesseract, and the same seed giving the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import {
  checkCharacter,
  fictionalHolder,
  flatFieldCard,
  forge,
  FLAT_HEIGHT,
  FLAT_WIDTH,
  gb11643Fault,
  makeFieldCard,
  NATIONS,
} from '../support/idcard-field-capture/index.js';

describe('the field-capture card maker', () => {
  it('computes the check character of the standard’s worked examples', () => {
    expect(checkCharacter('11010519491231002')).toBe('X');
    expect(checkCharacter('44052418800101001')).toBe('4');
  });

  it('gives every holder a number that keeps GB 11643 and agrees with the printed sex and birth', () => {
    for (let seed = 0; seed < 300; seed += 1) {
      const holder = fictionalHolder(seed);
      expect(gb11643Fault(holder.idNumber), holder.idNumber).toBeNull();
      expect(holder.idNumber.slice(6, 14)).toBe(holder.birth.replaceAll('-', ''));
      expect(Number(holder.idNumber[16]) % 2, holder.idNumber).toBe(holder.sex === '男' ? 1 : 0);
    }
  });

  it('forges numbers that break the standard in the way asked, and prints them', () => {
    for (let seed = 0; seed < 200; seed += 1) {
      const genuine = fictionalHolder(seed).idNumber;
      const pick = (seed % 10) / 10;
      expect(gb11643Fault(forge(genuine, 'check-character', pick)), genuine).toBe('check character');
      expect(gb11643Fault(forge(genuine, 'impossible-date', pick)), genuine).toBe('birth date');
    }
    for (const how of ['check-character', 'impossible-date'] as const) {
      const { printed, holder } = flatFieldCard(3, { forge: how });
      expect(printed).not.toBe(holder.idNumber);
      expect(gb11643Fault(printed)).not.toBeNull();
    }
  });

  it('knows the 56 nationalities and names holders of each', () => {
    expect(new Set(NATIONS).size).toBe(56);
    for (const nation of NATIONS) {
      const holder = fictionalHolder(7, nation);
      expect(holder.nation).toBe(nation);
      expect(holder.name.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('prints the number the truth gives, as Tesseract reads it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'field-card-'));
    try {
      for (const [seed, forgery] of [
        [5, undefined],
        [6, 'check-character'],
      ] as const) {
        const { card, printed } = flatFieldCard(seed, forgery ? { forge: forgery } : {});
        // The bottom band, where the number is printed, enlarged for Tesseract.
        const band = createCanvas(FLAT_WIDTH * 2, Math.round(FLAT_HEIGHT * 0.2) * 2);
        const top = Math.round(FLAT_HEIGHT * 0.76);
        band
          .getContext('2d')
          .drawImage(
            card,
            FLAT_WIDTH * 0.3,
            top,
            FLAT_WIDTH * 0.7,
            FLAT_HEIGHT * 0.2,
            0,
            0,
            FLAT_WIDTH * 1.4,
            FLAT_HEIGHT * 0.4,
          );
        const file = join(dir, `${seed}.png`);
        writeFileSync(file, band.toBuffer('image/png'));
        const read = execFileSync(
          'tesseract',
          [file, '-', '--psm', '7', '-l', 'eng', '-c', 'tessedit_char_whitelist=0123456789X'],
          {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
          },
        );
        expect(read.replace(/\s/g, '')).toBe(printed);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes the same capture from the same seed, and another from another seed', () => {
    const first = makeFieldCard(11, { capture: 'scan' });
    const again = makeFieldCard(11, { capture: 'scan' });
    const other = makeFieldCard(12, { capture: 'scan' });
    expect(again.image.equals(first.image)).toBe(true);
    expect(again.reference.equals(first.reference)).toBe(true);
    expect(again.truth).toEqual(first.truth);
    expect(other.image.equals(first.image)).toBe(false);
    expect(first.reference.equals(first.stranger)).toBe(false);
    expect(first.truth.id_num).toBe(first.holder.idNumber);
    expect(first.capture).toBe('scan');
  });
});
