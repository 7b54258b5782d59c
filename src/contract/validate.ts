/**
 * Validation of a request body against its operation: the JSON Schema first (every violation,
 * not only the first), then the operation's rules between fields. Each violation names the JSON
 * path of the field and the rule it broke, in words a client can act on.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import type { Operation, Violation } from './types.js';

const ajv = new Ajv({
  allErrors: true,
  useDefaults: true,
  coerceTypes: false,
  removeAdditional: false,
  verbose: true,
  strict: false,
  // Ajv's optimising pass over the code it generates makes no validation measurably faster
  // (about 2 µs for a chat request either way) but doubles the compiling: 0.5 s of CPU instead of
  // 0.25 for the operations' schemas, 0.12 s instead of 0.07 for the configuration's, which every
  // command and every server start pays.
  code: { optimize: false },
});
ajv.addKeyword({ keyword: 'x-rule', schemaType: 'string' });

const compiled = new WeakMap<TSchema, ValidateFunction>();

function validatorFor(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(bounded(schema) as TSchema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * `schema` with a range on every number that states none: an integer within ±(2^53 − 1), the
 * integers a JavaScript number holds exactly, and any number finite (JSON's 1e400 parses as
 * Infinity). Without it such a value passed validation and failed deeper down: an offset that
 * SQLite cannot bind, a price of Infinity credits.
 */
function bounded(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(bounded);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  // Without its `$id`: two copies of one named schema (inside two operations) would clash in Ajv,
  // and nothing refers to a schema by its id.
  for (const [key, value] of Object.entries(schema)) if (key !== '$id') copy[key] = bounded(value);
  // A type may be a list (`['integer', 'null']` for a nullable one).
  const types = [copy.type].flat();
  const limit = types.includes('integer')
    ? Number.MAX_SAFE_INTEGER
    : types.includes('number')
      ? Number.MAX_VALUE
      : undefined;
  if (limit !== undefined) {
    if (copy.maximum === undefined && copy.exclusiveMaximum === undefined) copy.maximum = limit;
    if (copy.minimum === undefined && copy.exclusiveMinimum === undefined) copy.minimum = -limit;
  }
  return copy;
}

/** `/content/0/text` → `content[0].text`; the body itself is `body`. */
export function fieldPath(pointer: string, prefix = ''): string {
  let path = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path === '' ? 'body' : path;
}

function join(path: string, member: string): string {
  return path === 'body' ? member : `${path}.${member}`;
}

function list(values: unknown[]): string {
  return values.map((v) => (v === null ? 'null' : String(v))).join(', ');
}

function ruleOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(p.type).split(',').join(' or ')}`;
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      return allowed.length === 1 ? `must be ${list(allowed)}` : `must be one of ${list(allowed)}`;
    }
    case 'const':
      return `must be ${String(p.allowedValue)}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'minProperties':
      return `must have at least ${String(p.limit)} member${p.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `must have at most ${String(p.limit)} members`;
    case 'uniqueItems':
      return 'must not contain duplicates';
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'pattern':
      return typeof parent['x-rule'] === 'string' ? parent['x-rule'] : `must match ${String(p.pattern)}`;
    case 'anyOf':
    case 'oneOf':
      return typeof parent['x-rule'] === 'string' ? parent['x-rule'] : 'does not match any allowed form';
    default:
      return error.message ?? 'is invalid';
  }
}

function toViolations(errors: ErrorObject[], prefix: string): Violation[] {
  // A union reports its own failure plus one per branch; the branches are noise to a client.
  const unions = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => e.schemaPath);
  // An enum already says which values are allowed; its type error at the same place adds nothing.
  const enums = new Set(errors.filter((e) => e.keyword === 'enum').map((e) => e.instancePath));
  const relevant = errors.filter(
    (e) =>
      !unions.some((u) => e.schemaPath.startsWith(`${u}/`)) &&
      !(e.keyword === 'type' && enums.has(e.instancePath)),
  );
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const error of relevant) {
    const base = fieldPath(error.instancePath, prefix);
    const p = error.params as Record<string, unknown>;
    let violation: Violation;
    if (error.keyword === 'required') {
      violation = { field: join(base, String(p.missingProperty)), rule: 'is required' };
    } else if (error.keyword === 'additionalProperties') {
      violation = { field: join(base, String(p.additionalProperty)), rule: 'is not a known field' };
    } else {
      violation = { field: base, rule: ruleOf(error) };
    }
    const key = `${violation.field}\u0000${violation.rule}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(violation);
    }
  }
  return out;
}

/**
 * Checks `value` against `schema`, filling in defaults. `prefix` is the path of `value` inside
 * the body, for schemas applied by rules to embedded values (a JSON string holding an object).
 */
export function checkSchema(schema: TSchema, value: unknown, prefix = ''): Violation[] {
  const validate = validatorFor(schema);
  return validate(value) ? [] : toViolations(validate.errors ?? [], prefix);
}

export interface ValidationResult {
  violations: Violation[];
  body: Record<string, unknown>;
}

/**
 * Validates a parsed JSON body for `operation`. Rules between fields run even when the schema
 * failed, so that one answer lists everything wrong; a rule's own violation at a field the
 * schema already rejected is dropped as redundant.
 */
export function validateRequest(operation: Operation, body: unknown): ValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { violations: [{ field: 'body', rule: 'must be a JSON object' }], body: {} };
  }
  const record = body as Record<string, unknown>;
  const violations = checkSchema(operation.request, record);
  const schemaFields = new Set(violations.map((v) => v.field));
  for (const rule of operation.rules) {
    let found: Violation[];
    try {
      found = rule(record);
    } catch (error) {
      // A rule may assume types the schema guarantees; when the schema already failed, its
      // violations stand for the rule's.
      if (schemaFields.size > 0) continue;
      throw error;
    }
    for (const v of found) if (!schemaFields.has(v.field)) violations.push(v);
  }
  return { violations, body: record };
}
