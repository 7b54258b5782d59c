/**
 * docs/configuration.md against the configuration schema: the page's generated section must be
 * what the schema gives today (regenerate it with `node --import tsx scripts/config-reference.mjs`),
 * and it must document every key the schema accepts, with a type, a default and a sentence.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configKeys } from '../src/config/keys.js';
import { BEGIN, END, withReference } from '../src/config/reference.js';

const PAGE = readFileSync('docs/configuration.md', 'utf8');
const generated = PAGE.slice(PAGE.indexOf(BEGIN), PAGE.indexOf(END));

/** The table row of a key, as its cells. */
function rowOf(path: string): string[] | undefined {
  const line = generated.split('\n').find((l) => l.startsWith(`| \`${path}\` `));
  return line
    ?.split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());
}

describe('the configuration reference', () => {
  it('is what the schema gives', () => {
    expect(withReference(PAGE)).toBe(PAGE);
  });

  it('documents every key with its type, default and meaning', () => {
    const keys = configKeys().filter((key) => !(key.section && !key.path.includes('.')));
    expect(keys.map((k) => k.path)).toEqual(
      expect.arrayContaining(['tasks.lease_seconds', 'callbacks.backoff_seconds', 'channels[].model_path']),
    );
    for (const key of keys) {
      const cells = rowOf(key.path);
      expect(cells, `a row for ${key.path}`).toHaveLength(4);
      for (const cell of cells ?? []) expect(cell, `every cell of ${key.path}`).not.toBe('');
    }
  });

  it('introduces each section with its description', () => {
    for (const section of configKeys().filter((key) => key.section && !key.path.includes('.'))) {
      expect(generated).toContain(`### \`${section.path}\`\n\n`);
      expect(section.schema.description, section.path).toBeTruthy();
    }
  });
});
