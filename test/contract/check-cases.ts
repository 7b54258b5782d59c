import { expect, it } from 'vitest';
import { validateRequest } from '../../src/contract/validate.js';
import type { Operation } from '../../src/contract/types.js';
import type { InvalidCase, ValidCase } from './cases/types.js';

/** Runs contract cases through the validator: each invalid body names its field, each valid one passes. */
export function checkCases(operations: Operation[], invalid: InvalidCase[], valid: ValidCase[]): void {
  const byPath = new Map(operations.map((o) => [o.path, o]));
  const operation = (path: string) => {
    const found = byPath.get(path);
    if (!found) throw new Error(`no operation ${path}`);
    return found;
  };
  for (const c of invalid) {
    it(`rejects ${c.path}: ${c.name}`, () => {
      const { violations } = validateRequest(operation(c.path), structuredClone(c.body));
      expect(violations.map((v) => v.field)).toContain(c.field);
    });
  }
  for (const c of valid) {
    it(`accepts ${c.path}: ${c.name}`, () => {
      const { violations } = validateRequest(operation(c.path), structuredClone(c.body));
      expect(violations).toEqual([]);
    });
  }
}
