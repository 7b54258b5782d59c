import type { Kind, SearchDocument } from './types.js';

/** How a document is named in the index: re-indexing the same record replaces it. */
export function recordKey(doc: SearchDocument): string {
  const kind: Kind = doc.kind ?? 'page';
  // Many questions may point at one page: each question is its own record.
  return kind === 'question' ? `${kind} ${doc.link} ${doc.title}` : `${kind} ${doc.link}`;
}

/** The site a link belongs to, for sitelinks: its host, or the folder of a file. */
export function siteOf(link: string): string {
  try {
    const url = new URL(link);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.host.toLowerCase();
    return `${url.protocol}${url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1)}`;
  } catch {
    return link.slice(0, link.lastIndexOf('/') + 1);
  }
}
