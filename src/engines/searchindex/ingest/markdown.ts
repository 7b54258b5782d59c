/**
 * Markdown and plain text as documents. Markdown's title is its front matter `title:` or its
 * first heading; the text keeps what a reader sees (link and image text, code) without the
 * markup. Plain text's title is its first non-empty line.
 */
import type { SearchDocument } from '../types.js';

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n/;

function frontMatter(source: string): { fields: Map<string, string>; rest: string } {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { fields: new Map(), rest: source };
  const fields = new Map<string, string>();
  for (const line of (match[1] ?? '').split('\n')) {
    const pair = /^([A-Za-z_]+):\s*(.*)$/.exec(line);
    if (pair?.[1] && pair[2]) fields.set(pair[1].toLowerCase(), pair[2].replace(/^["']|["']$/g, ''));
  }
  return { fields, rest: source.slice(match[0].length) };
}

/** Markup removed, one line per line: what a reader of the rendered page sees. */
export function plainMarkdown(source: string): string {
  return source
    .replace(/^```.*$/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>\n]+>/g, '')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/^\s*\|?[\s:|-]+\|[\s:|-]*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

export function markdownToDocument(source: string, link: string): SearchDocument {
  const { fields, rest } = frontMatter(source.replace(/\r\n/g, '\n'));
  const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(rest)?.[1];
  const text = plainMarkdown(rest);
  return {
    kind: 'page',
    link,
    title: plainMarkdown(fields.get('title') ?? heading ?? text.split('\n')[0] ?? link) || link,
    text,
    date: /^\d{4}-\d{2}-\d{2}/.exec(fields.get('date') ?? '')?.[0],
    language: fields.get('lang') ?? fields.get('language'),
  };
}

export function textToDocument(source: string, link: string): SearchDocument {
  const text = source.replace(/\r\n/g, '\n').trim();
  const first =
    text
      .split('\n')
      .find((line) => line.trim())
      ?.trim() ?? link;
  return { kind: 'page', link, title: first.slice(0, 200), text };
}
