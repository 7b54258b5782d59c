/**
 * An HTML page as a document: <title> (else og:title, else the first h1), the meta description
 * as the page's lead, the visible text (scripts, styles, navigation chrome and templates left
 * out), og:image, the published date from article:published_time or similar meta tags or
 * <time datetime>, and the language from <html lang>. A canonical link or og:url names the page
 * when present and http(s), so that mirrored copies index as one.
 */
import { Parser } from 'htmlparser2';
import { isWebUrl } from '../records.js';
import type { SearchDocument } from '../types.js';

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'nav', 'head']);
const BLOCK = /^(p|div|br|li|h[1-6]|tr|td|th|section|article|header|footer|blockquote|pre|dd|dt)$/;
const DATE_META = new Set([
  'article:published_time',
  'og:published_time',
  'datepublished',
  'date',
  'dc.date',
  'dc.date.issued',
  'pubdate',
]);

function isoDate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?/.exec(text.trim());
  if (!match) return undefined;
  if (!match[2]) return match[1];
  const date = new Date(match[0]);
  return Number.isNaN(date.getTime()) ? match[1] : date.toISOString();
}

export function htmlToDocument(html: string, fallbackLink: string): SearchDocument {
  const meta = new Map<string, string>();
  let title = '';
  let h1 = '';
  let lang: string | undefined;
  let canonical: string | undefined;
  let timeAttr: string | undefined;
  const text: string[] = [];
  const open: string[] = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        open.push(name);
        if (HIDDEN.has(name)) hidden += 1;
        if (name === 'html' && attributes.lang) lang = attributes.lang;
        if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? attributes.itemprop ?? '').toLowerCase();
          if (key && attributes.content && !meta.has(key)) meta.set(key, attributes.content);
        }
        if (name === 'link' && attributes.rel?.toLowerCase() === 'canonical' && attributes.href)
          canonical = attributes.href;
        if (name === 'time' && attributes.datetime && !timeAttr) timeAttr = attributes.datetime;
        if (BLOCK.test(name)) text.push('\n');
      },
      ontext(data) {
        const inside = open[open.length - 1];
        if (inside === 'title') title += data;
        else if (hidden === 0) {
          if (open.includes('h1') && !h1) h1 = data.trim();
          text.push(data);
        }
      },
      onclosetag(name) {
        // Tolerate unbalanced markup: close up to the matching tag.
        const at = open.lastIndexOf(name);
        if (at < 0) return;
        for (const closed of open.splice(at)) if (HIDDEN.has(closed)) hidden -= 1;
        if (BLOCK.test(name)) text.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const body = text
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  const description = meta.get('description') ?? meta.get('og:description');
  const date = [...DATE_META].map((key) => isoDate(meta.get(key))).find(Boolean) ?? isoDate(timeAttr);
  const link = absolute(canonical ?? meta.get('og:url'), fallbackLink) ?? fallbackLink;
  return {
    kind: 'page',
    link,
    title: (title.replace(/\s+/g, ' ').trim() || meta.get('og:title') || h1 || link).slice(0, 500),
    text: description && !body.startsWith(description) ? `${description}\n${body}` : body,
    date,
    language: lang && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(lang) ? lang : undefined,
    image_url: absolute(meta.get('og:image'), link),
  };
}

/**
 * A URL from the page made absolute against the page's own; undefined when it is not an http(s)
 * URL, which is all a result may link (a `file:` canonical names someone's disk). A kept file's
 * link is only a path (its address is the server's): it resolves absolute URLs only.
 */
function absolute(url: string | undefined, base: string): string | undefined {
  const against = URL.canParse(base) ? base : undefined;
  if (!url || !URL.canParse(url, against)) return undefined;
  const resolved = new URL(url, against).toString();
  return isWebUrl(resolved) ? resolved : undefined;
}
