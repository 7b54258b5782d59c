// Writes the key reference of docs/configuration.md from the configuration schema
// (src/config/schema.ts), between the page's markers; the prose around them is kept.
// test/config-reference.test.ts fails when the page and the schema differ.
// Usage: node --import tsx scripts/config-reference.mjs (on the sources: no build needed)
import { readFileSync, writeFileSync } from 'node:fs';
import { withReference } from '../src/config/reference.ts';

const page = new URL('../docs/configuration.md', import.meta.url);
writeFileSync(page, withReference(readFileSync(page, 'utf8')));
