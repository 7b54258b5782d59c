import type { Kind, SearchRequest } from './types.js';

/** How many records the index holds per kind, language and country: what filters can exclude. */
export interface FacetCount {
  kind: Kind;
  language: string | null;
  country: string | null;
}

/**
 * SQL conditions on the facets table (alias d) for a request's range, filters and kinds.
 * Language and country narrow only records that declare one: a page that says nothing about its
 * language is a candidate in every language. A language is compared by its primary subtag, so
 * zh-CN finds records marked zh. A condition that no record of the index can fail (`profile`)
 * is left out; with none left, a search reads no facets at all.
 */
export function filterSql(
  request: SearchRequest,
  profile: readonly FacetCount[],
): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (request.range?.from) {
    parts.push('d.date >= ?');
    params.push(request.range.from);
  }
  if (request.range?.to) {
    // A bare date as upper bound includes every timestamp of that day.
    parts.push('d.date <= ?');
    params.push(request.range.to.length === 10 ? `${request.range.to}\uffff` : request.range.to);
  }
  const language = request.language ? primaryLanguage(request.language) : undefined;
  if (language && profile.some((f) => f.language !== null && f.language !== language)) {
    parts.push('(d.language IS NULL OR d.language = ?)');
    params.push(language);
  }
  const country = request.country?.toUpperCase();
  if (country && profile.some((f) => f.country !== null && f.country !== country)) {
    parts.push('(d.country IS NULL OR d.country = ?)');
    params.push(country);
  }
  const kinds = request.kinds;
  if (kinds && profile.some((f) => !kinds.includes(f.kind))) {
    const list = kinds.map(() => '?').join(', ');
    parts.push(
      request.withImages
        ? `(d.kind IN (${list}) OR (d.has_image = 1 AND d.kind IN ('page', 'news', 'video')))`
        : `d.kind IN (${list})`,
    );
    params.push(...kinds);
  }
  return { sql: parts.map((part) => ` AND ${part}`).join(''), params };
}

/** "zh-CN" → "zh": records are stored and compared by primary language. */
export function primaryLanguage(code: string): string {
  return code.split('-')[0]?.toLowerCase() ?? code.toLowerCase();
}
