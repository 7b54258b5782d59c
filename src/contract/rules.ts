/**
 * Building blocks for rules between fields. Each returns the violations it finds; a family's
 * rules are a list of these, so the rule text lives next to the condition it states.
 */
import type { TSchema } from '@sinclair/typebox';
import type { Rule, Violation } from './types.js';
import { checkSchema } from './validate.js';

export type Body = Record<string, unknown>;

/** A JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object items of an array with their indexes; anything else (the schema reports it) yields none. */
export function objectsIn(value: unknown): [number, Record<string, unknown>][] {
  const objects: [number, Record<string, unknown>][] = [];
  // A loop rather than flatMap: every chat request passes here several times.
  if (Array.isArray(value)) value.forEach((item, i) => isRecord(item) && objects.push([i, item]));
  return objects;
}

export function present(body: Body, field: string): boolean {
  return body[field] !== undefined && body[field] !== null;
}

/** A non-empty string (after trimming). */
export function filled(body: Body, field: string): boolean {
  const value = body[field];
  return typeof value === 'string' ? value.trim() !== '' : present(body, field);
}

/** `field` must be given when `when(body)` holds; `because` completes "is required when …". */
export function requiredWhen(field: string, when: (body: Body) => boolean, because: string): Rule {
  return (body) =>
    when(body) && !filled(body, field) ? [{ field, rule: `is required when ${because}` }] : [];
}

/** `field` may be given only when `when(body)` holds; `because` completes "is only allowed when …". */
export function allowedOnlyWhen(field: string, when: (body: Body) => boolean, because: string): Rule {
  return (body) =>
    present(body, field) && !when(body) ? [{ field, rule: `is only allowed when ${because}` }] : [];
}

/** At most one of `fields` may be given. */
export function mutuallyExclusive(...fields: string[]): Rule {
  return (body) => {
    const given = fields.filter((f) => present(body, f));
    return given.length > 1
      ? given.slice(1).map((f) => ({ field: f, rule: `cannot be combined with ${given[0]}` }))
      : [];
  };
}

/** `start` must be below `end` when both are given. */
export function ordered(start: string, end: string): Rule {
  return (body) => {
    const a = body[start];
    const b = body[end];
    return typeof a === 'number' && typeof b === 'number' && a >= b
      ? [{ field: end, rule: `must be greater than ${start}` }]
      : [];
  };
}

/**
 * A member that may arrive as a JSON string of an object: parses it in place, then checks it
 * against `schema` with paths under `field`.
 */
export function embeddedObject(field: string, schema: TSchema): Rule {
  return (body) => {
    const value = body[field];
    if (value === undefined || value === null) return [];
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        return [{ field, rule: 'must be an object or a JSON string of one (the string is not valid JSON)' }];
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return [{ field, rule: 'must be an object or a JSON string of one' }];
      }
      body[field] = parsed;
    }
    return checkSchema(schema, parsed, field);
  };
}

export function violation(field: string, rule: string): Violation[] {
  return [{ field, rule }];
}
