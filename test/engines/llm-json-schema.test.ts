/**
 * The rewriting of request JSON Schemas into what node-llama-cpp builds grammars from. Pure
 * functions, no model: what a grammar then does with them is tested in llm.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { grammarSchema } from '../../src/engines/llm/json-schema.js';
import { LocalLlmError } from '../../src/engines/llm/errors.js';

const refusal = (schema: unknown) => {
  try {
    grammarSchema(schema, 'schema');
  } catch (error) {
    expect(error).toBeInstanceOf(LocalLlmError);
    expect((error as LocalLlmError).requestError).toBe(true);
    return (error as Error).message;
  }
  return 'accepted';
};

describe('grammarSchema', () => {
  it('reads an unconstrained schema as any JSON value, not as null', () => {
    for (const any of [{}, true, { description: 'anything' }]) {
      const converted = grammarSchema(any, 'schema') as { oneOf: unknown[] };
      expect(converted.oneOf).toHaveLength(3);
    }
  });

  it('opens objects without properties to any members, and keeps declared ones closed', () => {
    expect(grammarSchema({ type: 'object' }, 's')).toEqual({ type: 'object', additionalProperties: true });
    expect(grammarSchema({ type: 'object', properties: { a: { type: 'string' } } }, 's')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    });
    expect(
      grammarSchema({ type: 'object', properties: {}, additionalProperties: { type: 'integer' } }, 's'),
    ).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: { type: 'integer' },
    });
  });

  it('turns anyOf, type lists and nullable into oneOf', () => {
    expect(grammarSchema({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 's')).toEqual({
      oneOf: [{ type: 'string' }, { type: 'null' }],
    });
    expect(grammarSchema({ type: ['string', 'null'] }, 's')).toEqual({ type: ['string', 'null'] });
    expect(grammarSchema({ type: ['object', 'null'] }, 's')).toEqual({
      oneOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }],
    });
    expect(grammarSchema({ type: 'integer', nullable: true }, 's')).toEqual({
      oneOf: [{ type: 'integer' }, { type: 'null' }],
    });
  });

  it('hoists definitions to the root and points references at $defs', () => {
    const converted = grammarSchema(
      {
        type: 'object',
        properties: { a: { $ref: '#/definitions/point' } },
        definitions: {
          point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false },
        },
      },
      's',
    );
    expect(converted).toEqual({
      oneOf: [{ type: 'object', properties: { a: { $ref: '#/$defs/point' } }, additionalProperties: false }],
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], maxItems: 2 } },
    });
  });

  it('keeps the constraints a grammar can hold and drops the others', () => {
    expect(grammarSchema({ type: 'string', maxLength: 5, pattern: '^a' }, 's')).toEqual({
      type: 'string',
      maxLength: 5,
    });
    expect(grammarSchema({ type: 'string', format: 'date' }, 's')).toEqual({
      type: 'string',
      format: 'date',
    });
    expect(grammarSchema({ type: 'string', format: 'email' }, 's')).toEqual({ type: 'string' });
    expect(grammarSchema({ type: 'number', minimum: 3 }, 's')).toEqual({ type: 'number' });
  });

  it('refuses what a grammar cannot enforce, naming where it is', () => {
    expect(refusal({ type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } })).toMatch(
      /^schema\.properties\.a\.allOf: /,
    );
    expect(refusal({ not: { type: 'string' } })).toMatch(/^schema\.not: /);
    expect(refusal({ $ref: 'https://example.com/schema.json' })).toMatch(/^schema\.\$ref: /);
    expect(refusal({ type: 'decimal' })).toMatch(/unknown type/);
    expect(refusal({ const: { a: 1 } })).toMatch(/^schema\.const: /);
  });
});
