import type { SearchRequest } from './types.js';

/** SQL conditions on the documents table (alias d) for a request's range and filters. */
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
    parts.push('d.language = ?');
    params.push(request.language.toLowerCase());
  }
  if (request.country) {
    parts.push('d.country = ?');
    params.push(request.country.toUpperCase());
  }
  return { sql: parts.map((part) => ` AND ${part}`).join(''), params };
}
