/**
 * The JSON body parser, in place of Fastify's: the same parsing, with answers that say what is
 * wrong. Fastify's own answers one message for every failure ("Body is not valid JSON"), a valid
 * body with a `__proto__` member included. Here malformed JSON is answered with the parser's
 * reason, and a member that would replace an object's prototype once merged (`__proto__`, or a
 * `constructor` holding a `prototype`) is refused by its path, like any field a rule refuses.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import type { Violation } from '../contract/types.js';
import { fieldPath } from '../contract/validate.js';

/** Only a body that spells one of these (or escapes a character) can hold a forbidden member. */
const SUSPECT = /__proto__|constructor|\\u/;

export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (
      _request: FastifyRequest,
      text: string | Buffer,
      done: (error: Error | null, body?: unknown) => void,
    ) => {
      const body = String(text);
      if (body.length === 0) return done(badRequest([{ field: 'body', rule: 'must not be empty' }]));
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch (error) {
        return done(
          badRequest([{ field: 'body', rule: `must be valid JSON (${(error as Error).message})` }]),
        );
      }
      const forbidden = SUSPECT.test(body) ? forbiddenMembers(value) : [];
      if (forbidden.length > 0) return done(badRequest(forbidden));
      done(null, value);
    },
  );
}

const RULE = 'is not allowed: it would replace the prototype of the object it is in';

/** The members of `value`, at any depth (walked without recursion), that reach a prototype. */
function forbiddenMembers(value: unknown): Violation[] {
  const found: Violation[] = [];
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, pointer] = next;
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, member] of Object.entries(node)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const holdsPrototype =
        key === 'constructor' && typeof member === 'object' && member !== null && 'prototype' in member;
      if (key === '__proto__' || holdsPrototype) found.push({ field: fieldPath(at), rule: RULE });
      else pending.push([member, at]);
    }
  }
  return found;
}
