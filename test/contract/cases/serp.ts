import type { InvalidCase, ValidCase } from './types.js';

const path = '/serp/web';

export const invalid: InvalidCase[] = [
  { path, name: 'query missing', body: {}, field: 'query' },
  { path, name: 'query empty', body: { query: '' }, field: 'query' },
  { path, name: 'query over 2048', body: { query: 'q'.repeat(2049) }, field: 'query' },
  { path, name: 'query not a string', body: { query: 42 }, field: 'query' },
  { path, name: 'type not in enum', body: { query: 'a', type: 'books' }, field: 'type' },
  { path, name: 'page zero', body: { query: 'a', page: 0 }, field: 'page' },
  { path, name: 'page fractional', body: { query: 'a', page: 1.5 }, field: 'page' },
  { path, name: 'number over 100', body: { query: 'a', number: 101 }, field: 'number' },
  { path, name: 'number zero', body: { query: 'a', number: 0 }, field: 'number' },
  { path, name: 'range unknown unit', body: { query: 'a', range: 'x' }, field: 'range' },
  { path, name: 'range unreal date', body: { query: 'a', range: '2024-02-30..2024-03-01' }, field: 'range' },
  { path, name: 'range reversed', body: { query: 'a', range: '2024-03-01..2024-01-01' }, field: 'range' },
  { path, name: 'country not a code', body: { query: 'a', country: 'USA' }, field: 'country' },
  { path, name: 'language not a code', body: { query: 'a', language: 'english!' }, field: 'language' },
  { path, name: 'unknown member', body: { query: 'a', qeury: 'b' }, field: 'qeury' },
];

export const valid: ValidCase[] = [
  { path, name: 'query only', body: { query: 'switchyard' } },
  {
    path,
    name: 'every member',
    body: { query: 'a b', type: 'news', page: 2, number: 20, range: 'qdr:w', country: 'de', language: 'de' },
  },
  { path, name: 'date range', body: { query: 'a', range: '2024-01-01..2024-12-31' } },
];
