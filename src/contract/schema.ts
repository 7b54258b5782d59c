/**
 * Schema builders shared by every family. They emit plain JSON Schema (through TypeBox) with two
 * habits that keep error messages readable: enumerations use `enum` rather than unions of
 * literals, and a pattern carries an `x-rule` sentence that the validator reports instead of the
 * regular expression.
 */
import { Type, type Static, type TSchema, type SchemaOptions, type TUnsafe } from '@sinclair/typebox';

export { Type, type Static, type TSchema };

/** A string that must be one of `values`. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** A number that must be one of `values`. */
export function NumberEnum<const T extends readonly number[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'number', enum: [...values] });
}

/** A primitive schema that also admits `null` (kept as one `type` list, so errors stay short). */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type: string };
  const copy: Record<string, unknown> = { ...rest, type: [type, 'null'] };
  if (Array.isArray(copy.enum)) copy.enum = [...copy.enum, null];
  return Type.Unsafe<Static<T> | null>(copy);
}

/** A string with a pattern whose failure is reported as `rule`. */
export function PatternString(pattern: string, rule: string, options: SchemaOptions = {}) {
  return Type.String({ ...options, pattern, 'x-rule': rule });
}

const URL_MAX = 8192;
/** http: or https:, in any case: a URL's scheme is case-insensitive (RFC 3986, 3.1). */
const HTTP_SCHEME = '[Hh][Tt][Tt][Pp][Ss]?://';
/** Data URLs carry whole images inline, so their cap is the body limit, not a URL length. */
const DATA_URL_MAX = 15_000_000;

/** A URL of media the service will fetch: http(s), or inline `data:`. */
export function InputUrl(description: string) {
  return Type.String({
    description: `${description}. http(s) URL or data: URL.`,
    maxLength: DATA_URL_MAX,
    pattern: `^(${HTTP_SCHEME}|[Dd][Aa][Tt][Aa]:)`,
    'x-rule': 'must be an http(s) or data: URL',
  });
}

/** A URL the service will call back: http(s) only. */
export function CallbackUrl() {
  return Type.String({
    description: 'Called with the final result when the task finishes (signed, retried).',
    maxLength: URL_MAX,
    pattern: `^${HTTP_SCHEME}`,
    'x-rule': 'must be an http(s) URL',
  });
}

/** The extension that answers at once with the task id instead of waiting. */
export function AsyncFlag() {
  return Type.Boolean({
    description: 'Answer at once with task_id and trace_id instead of waiting for the result.',
  });
}

/** A task id: a UUID. */
export function TaskId(description = 'Task id') {
  return PatternString(
    '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    'must be a UUID',
    { description },
  );
}

/** A closed object: members not listed are rejected by name. */
export function Closed<T extends Record<string, TSchema>>(properties: T, options: SchemaOptions = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/**
 * A member that arrives either as an object or as a JSON string of one (the origin accepts both).
 * The schema admits any object or string; the `embeddedObject` rule parses the string form and
 * checks the members against `object`, so each member's error is reported once, by its path.
 */
export function ObjectOrJsonString<T extends TSchema>(object: T, description: string) {
  return Type.Unsafe<Static<T> | string>({
    description: `${description} An object, or a JSON string of one.`,
    'x-members': object,
    type: ['object', 'string'],
    maxLength: 10_000,
  });
}
