/**
 * The key reference of docs/configuration.md, written from the configuration schema: each key
 * with its type, its default and the schema's description of it. The page's own prose stays
 * outside the markers; `withReference` replaces what lies between them.
 */
import type { TSchema } from '@sinclair/typebox';
import { configKeys, type ConfigKey } from './keys.js';

export const BEGIN =
  '<!-- Generated from src/config/schema.ts by `node --import tsx scripts/config-reference.mjs`: edit the schema, not this section. -->';
export const END = '<!-- End of the generated section. -->';

function range(schema: TSchema): string {
  const low =
    schema.exclusiveMinimum !== undefined
      ? `> ${schema.exclusiveMinimum}`
      : schema.minimum !== undefined
        ? `≥ ${schema.minimum}`
        : undefined;
  if (schema.maximum === undefined) return low ? ` ${low}` : '';
  if (schema.minimum !== undefined) return ` ${schema.minimum}–${schema.maximum}`;
  return low ? ` ${low}, ≤ ${schema.maximum}` : ` ≤ ${schema.maximum}`;
}

/** A key's type in words: `integer 1–1024`, `one of proxy, redirect`, `list of string`. */
function typeOf(schema: TSchema): string {
  const rule = schema['x-rule'] as string | undefined;
  // A rule is plain text: its `<path>` must not be read as an HTML tag.
  if (rule)
    return `${schema.type === 'string' ? 'string: ' : ''}${rule.replace(/^must be /, '').replace(/</g, '\\<')}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  if (Array.isArray(schema.type)) {
    const [type, ...others] = schema.type as string[];
    return `${type}${range(schema)}${others.map((t) => `, or \`${t}\``).join('')}`;
  }
  switch (schema.type) {
    case 'integer':
    case 'number':
      return `${schema.type}${range(schema)}`;
    case 'array':
      return `list of ${typeOf(schema.items as TSchema)}`;
    case 'object': {
      if (schema.properties) return 'object';
      const [value] = Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>);
      return `map of string to ${value ? typeOf(value) : 'anything'}`;
    }
    default:
      return String(schema.type);
  }
}

/** A value as it would be written in YAML's flow style. */
function yamlOf(value: unknown, nested = false): string {
  if (Array.isArray(value)) return `[${value.map((v) => yamlOf(v, true)).join(', ')}]`;
  if (typeof value === 'string' && !nested) return value;
  return JSON.stringify(value);
}

function defaultOf(key: ConfigKey): string {
  const documented = key.schema['x-default'] as string | undefined;
  if (documented) return documented;
  if (key.schema.default !== undefined) return `\`${yamlOf(key.schema.default)}\``;
  return key.required ? 'required' : 'none';
}

/** Descriptions name other pages as `chat.md`; on the page they are links. */
function prose(text: string): string {
  return text.replace(/\b([a-z][a-z0-9-]*\.md)\b/g, '[$1]($1)');
}

function describe(key: ConfigKey): string {
  const text = key.schema.description as string | undefined;
  if (!text) throw new Error(`configuration key ${key.path} has no description in the schema`);
  return prose(text);
}

/** A Markdown table laid out as Prettier lays it out, so that the generated page passes its check. */
function table(rows: string[][]): string[] {
  const header = ['key', 'type', 'default', 'meaning'];
  const cells = [header, ...rows].map((row) => row.map((cell) => cell.replace(/\|/g, '\\|')));
  const widths = header.map((_, i) => Math.max(3, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const [first = [], ...rest] = cells;
  return [line(first), line(widths.map((w) => '-'.repeat(w))), ...rest.map(line)];
}

function row(key: ConfigKey): string[] {
  return [`\`${key.path}\``, typeOf(key.schema), defaultOf(key), describe(key)];
}

/** The generated section: the top-level keys, then one table per section. */
export function renderReference(): string {
  const keys = configKeys();
  const topLevel = keys.filter((k) => !k.path.includes('.') && !k.section);
  const lines = ['## Keys', '', ...table(topLevel.map(row))];
  for (const section of keys.filter((k) => k.section && !k.path.includes('.'))) {
    const members = keys.filter(
      (k) => k.path.startsWith(`${section.path}.`) || k.path.startsWith(`${section.path}[].`),
    );
    const shape =
      section.schema.type === 'array'
        ? ` A list of objects with the members below; default \`${yamlOf(section.schema.default)}\`.`
        : '';
    lines.push('', `### \`${section.path}\``, '', `${capitalised(describe(section))}.${shape}`, '');
    lines.push(...table(members.map(row)));
  }
  return lines.join('\n');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `document` with the generated section between its markers replaced by a fresh one. */
export function withReference(document: string): string {
  const begin = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`the page lacks the markers ${BEGIN} … ${END}`);
  return `${document.slice(0, begin + BEGIN.length)}\n\n${renderReference()}\n\n${document.slice(end)}`;
}
