/**
 * JSONL records: one search result per line, with the fields of its result member (the member's
 * name or its kind as `type`). A record is checked like a request body: every problem names the
 * field and the rule. Fields the index does not know are ignored, so exports of other tools can
 * be indexed as they are.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { checkSchema } from '../contract/validate.js';
import type { Violation } from '../contract/types.js';
import type { Kind, SearchDocument } from '../engines/searchindex/index.js';

const KIND_OF: Readonly<Record<string, Kind>> = {
  organic: 'page',
  search: 'page',
  page: 'page',
  news: 'news',
  images: 'image',
  image: 'image',
  videos: 'video',
  video: 'video',
  places: 'place',
  maps: 'place',
  place: 'place',
  knowledge_graph: 'entity',
  entity: 'entity',
  people_also_ask: 'question',
  question: 'question',
};

const Text = Type.String({ minLength: 1 });
/** An address handed to clients as the record gives it: http(s) only, never `file:` or `javascript:`. */
const WebUrl = Type.String({ pattern: '^https?://[^/?#\\s]', 'x-rule': 'must be an http(s) URL' });
const Optional = <T extends TSchema>(schema: T) => Type.Optional(schema);

const RecordSchema = Type.Object({
  type: Type.String({ enum: Object.keys(KIND_OF) }),
  link: WebUrl,
  title: Optional(Text),
  text: Optional(Type.String()),
  snippet: Optional(Type.String()),
  description: Optional(Type.String()),
  question: Optional(Text),
  date: Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}([T ][0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?$',
      'x-rule': 'must be an ISO 8601 date such as 2024-05-01 or 2024-05-01T10:00:00Z',
    }),
  ),
  language: Optional(
    Type.String({
      pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$',
      'x-rule': 'must be a language code such as en',
    }),
  ),
  country: Optional(Type.String({ pattern: '^[A-Za-z]{2}$', 'x-rule': 'must be a two-letter country code' })),
  image_url: Optional(WebUrl),
  source: Optional(Text),
  attributes: Optional(Type.Record(Type.String(), Type.String())),
  duration: Optional(Text),
  address: Optional(Text),
  latitude: Optional(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Optional(Type.Number({ minimum: -180, maximum: 180 })),
  rating: Optional(Type.Number({ minimum: 0 })),
  rating_count: Optional(Type.Integer({ minimum: 0 })),
  category: Optional(Text),
  phone_number: Optional(Text),
  website: Optional(WebUrl),
  entity_type: Optional(Text),
  description_link: Optional(WebUrl),
  description_source: Optional(Text),
});

type RecordFields = Record<string, unknown> & { type: string; link: string };

/** The fields each kind keeps beyond the common ones. */
const EXTRA: Readonly<Record<Kind, readonly string[]>> = {
  page: ['attributes'],
  news: [],
  image: [],
  video: ['duration'],
  place: [
    'address',
    'latitude',
    'longitude',
    'rating',
    'rating_count',
    'category',
    'phone_number',
    'website',
  ],
  entity: ['attributes', 'description_link', 'description_source', 'entity_type'],
  question: [],
};

function required(record: RecordFields, kind: Kind): Violation[] {
  const missing = (field: string) => ({ field, rule: `is required for type ${record.type}` });
  const problems: Violation[] = [];
  if (kind === 'question') {
    if (!record.question) problems.push(missing('question'));
    if (record.snippet === undefined && record.text === undefined) problems.push(missing('snippet'));
  } else if (!record.title) problems.push(missing('title'));
  if (kind === 'image' && !record.image_url) problems.push(missing('image_url'));
  return problems;
}

function pick(record: RecordFields, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    names.filter((name) => record[name] !== undefined).map((name) => [name, record[name]]),
  );
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A parsed JSON line as a document, or the problems that keep it out. */
export function recordToDocument(value: unknown): SearchDocument | Violation[] {
  const problems = checkSchema(RecordSchema, value);
  if (problems.length > 0) return problems;
  const record = value as RecordFields;
  const kind = KIND_OF[record.type] ?? 'page';
  const missing = required(record, kind);
  if (missing.length > 0) return missing;
  const body = str(record.text) ?? str(record.snippet) ?? str(record.description) ?? '';
  const common = {
    kind,
    link: record.link,
    text: body,
    date: str(record.date),
    language: str(record.language),
    country: str(record.country),
    image_url: str(record.image_url),
    source: str(record.source),
  };
  if (kind === 'question') {
    // The question is what people search for; the page's title is shown beside the answer.
    const fields = record.title ? { title: record.title } : {};
    return { ...common, title: String(record.question), fields };
  }
  return { ...common, title: String(record.title), fields: pick(record, EXTRA[kind]) };
}
