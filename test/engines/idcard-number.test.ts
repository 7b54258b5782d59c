/**
 * The citizen identity number of GB 11643-1999 and the tables it leans on: the check character
 * (against the standard's own examples and against the definition written out again here), each
 * rule a number can break, the division table, and the list of nations.
 */
import { describe, expect, it } from 'vitest';
import { checkDigit, parseIdNumber, type IdNumberFacts } from '../../src/engines/idcard/id-number.js';
import { NATIONS } from '../../src/engines/idcard/nations.js';
import { countyCodes, regionOf } from '../../src/engines/idcard/regions.js';
import { seeded } from '../../src/engines/random.js';

/** The check character by the definition: (12 - Σ aᵢ·2^(17-i) mod 11) mod 11, 10 written X. */
function byDefinition(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (2 ** (17 - i) % 11);
  const value = (12 - (sum % 11)) % 11;
  return value === 10 ? 'X' : String(value);
}

const NOW = new Date('2024-06-01T00:00:00Z');

function facts(value: string): IdNumberFacts {
  const parsed = parseIdNumber(value, NOW);
  if (!parsed.ok) throw new Error(`${value}: ${parsed.rule}`);
  return parsed;
}

function rule(value: string): string {
  const parsed = parseIdNumber(value, NOW);
  if (parsed.ok) throw new Error(`${value} passed`);
  return parsed.rule;
}

describe('check character', () => {
  it("gives the standard's examples", () => {
    expect(checkDigit('11010519491231002')).toBe('X');
    expect(checkDigit('44052418800101001')).toBe('4');
  });

  it('agrees with the definition over random numbers, X included', () => {
    const random = seeded(11);
    const seen = new Set<string>();
    for (let n = 0; n < 2000; n++) {
      const first17 = Array.from({ length: 17 }, () => Math.floor(random() * 10)).join('');
      const check = checkDigit(first17);
      expect(check).toBe(byDefinition(first17));
      seen.add(check);
    }
    expect(seen.size).toBe(11);
  });

  it('refuses anything but 17 digits', () => {
    expect(() => checkDigit('1101051949123100')).toThrow(RangeError);
    expect(() => checkDigit('1101051949123100A')).toThrow(RangeError);
  });
});

describe('reading a number', () => {
  it('states the region, the date of birth and the sex', () => {
    expect(facts('11010519491231002X')).toEqual({
      ok: true,
      number: '11010519491231002X',
      region: { code: '110105', province: '北京市', city: '市辖区', county: '朝阳区' },
      birth: '1949-12-31',
      sex: '女',
    });
  });

  it('upper-cases a lower-case x', () => {
    expect(facts('11010519491231002x').number).toBe('11010519491231002X');
  });

  it('reads the sex from the parity of the 17th digit', () => {
    for (let digit = 0; digit <= 9; digit++) {
      const first17 = `4401061985061712${digit}`;
      expect(facts(first17 + checkDigit(first17)).sex).toBe(digit % 2 === 1 ? '男' : '女');
    }
  });

  it('names a wrong length or a stray character', () => {
    for (const value of [
      '1101051949123100',
      '11010519491231002X1',
      '1101051949123100XX',
      '11010519491231002Y',
      '',
    ])
      expect(rule(value)).toMatch(/18 characters/);
  });

  it('names a region code the table does not have', () => {
    expect(rule('44052418800101001' + '4')).toMatch(/region code 440524 is not in/);
    const first17 = '99999919800101001';
    expect(rule(first17 + checkDigit(first17))).toMatch(/region code 999999/);
  });

  it('names a date of birth that is not a date, before 1900 or in the future', () => {
    const withCheck = (first17: string) => first17 + checkDigit(first17);
    expect(rule(withCheck('11010519490231002'))).toMatch(/19490231 is not a real date/);
    expect(rule(withCheck('11010519491301002'))).toMatch(/not a real date/);
    expect(rule(withCheck('11010518991231002'))).toMatch(/1899-12-31 is before 1900/);
    expect(rule(withCheck('11010520240602002'))).toMatch(/2024-06-02 is in the future/);
    expect(facts(withCheck('11010520240601002')).birth).toBe('2024-06-01');
    expect(facts(withCheck('11010520000229002')).birth).toBe('2000-02-29');
    expect(rule(withCheck('11010519000229002'))).toMatch(/not a real date/);
  });

  it('names the check digit it should have been', () => {
    expect(rule('110105194912310021')).toBe('The check digit should be X, not 1.');
    const first17 = '44010619850617123';
    const right = byDefinition(first17);
    for (const wrong of '0123456789X'.replace(right, ''))
      expect(rule(first17 + wrong)).toBe(`The check digit should be ${right}, not ${wrong}.`);
  });
});

describe('division table', () => {
  it('names province, city and county', () => {
    expect(regionOf('110105')).toEqual({ province: '北京市', city: '市辖区', county: '朝阳区' });
    expect(regionOf('440106')).toEqual({ province: '广东省', city: '广州市', county: '天河区' });
    expect(regionOf('441900')).toEqual({ province: '广东省', city: '东莞市', county: '东莞市' });
    expect(regionOf('650102')).toMatchObject({ province: '新疆维吾尔自治区', city: '乌鲁木齐市' });
  });

  it('knows nothing of codes outside it', () => {
    for (const code of ['999999', '110100', '110000', '11010', 'abcdef', ''])
      expect(regionOf(code)).toBeUndefined();
  });

  it('lists every county once, in order, each resolvable, across the 31 provinces', () => {
    const codes = countyCodes();
    expect(codes.length).toBeGreaterThan(2800);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
    for (const code of codes) {
      expect(code).toMatch(/^\d{6}$/);
      expect(regionOf(code)?.county).toBeTruthy();
    }
    expect(new Set(codes.map((code) => code.slice(0, 2))).size).toBe(31);
  });
});

describe('nations', () => {
  it('are the 56 groups, without the trailing 族', () => {
    expect(NATIONS).toHaveLength(56);
    expect(new Set(NATIONS).size).toBe(56);
    expect(NATIONS[0]).toBe('汉');
    expect(NATIONS).toContain('维吾尔');
    expect(NATIONS).toContain('基诺');
    for (const nation of NATIONS) expect(nation.endsWith('族')).toBe(false);
  });
});
