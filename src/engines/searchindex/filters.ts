import type { SearchRequest } from './types.js';

/**
 * SQL conditions on the facets table (alias d) for a request's range, filters and kinds.
 * Language and country narrow only records that declare one: a page that says nothing about its
 * language is a candidate in every language. A language is compared by its primary subtag, so
 * zh-CN finds records marked zh.
 */
export function filterSql(request: SearchRequest): { sql: string; params: string[] } {
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
  if (request.language) {
    parts.push('(d.language IS NULL OR d.language = ?)');
    params.push(primaryLanguage(request.language));
  }
  if (request.country) {
    parts.push('(d.country IS NULL OR d.country = ?)');
    params.push(request.country.toUpperCase());
  }
  if (request.kinds) {
    const kinds = request.kinds.map(() => '?').join(', ');
    parts.push(
      request.withImages
        ? `(d.kind IN (${kinds}) OR (d.has_image = 1 AND d.kind IN ('page', 'news', 'video')))`
        : `d.kind IN (${kinds})`,
    );
    params.push(...request.kinds);
  }
  return { sql: parts.map((part) => ` AND ${part}`).join(''), params };
}

/** "zh-CN" → "zh": records are stored and compared by primary language. */
export function primaryLanguage(code: string): string {
  return code.split('-')[0]?.toLowerCase() ?? code.toLowerCase();
}
