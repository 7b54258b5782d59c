import type { Kind, SearchDocument } from './types.js';

/** How a document is named in the index: re-indexing the same record replaces it. */
export function recordKey(doc: SearchDocument): string {
  const kind: Kind = doc.kind ?? 'page';
  // Many questions may point at one page: each question is its own record.
  return kind === 'question' ? `${kind} ${doc.link} ${doc.title}` : `${kind} ${doc.link}`;
}

/**
 * The site a link belongs to, for sitelinks: its host, or for a kept file (`/<root>/<path>`) the
 * folder it was indexed from, so that two folders indexed apart are two sites.
 */
export function siteOf(link: string): string {
  if (link.startsWith('/')) return link.slice(0, link.indexOf('/', 1) + 1) || link;
  return URL.canParse(link) ? new URL(link).host.toLowerCase() || link : link;
}

/** An address a client may be handed: http(s) only, never `file:`, `javascript:` or the like. */
export function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url) && URL.canParse(url);
}
