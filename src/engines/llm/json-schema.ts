/**
 * A request's JSON Schema (`response_format.json_schema.schema`, a tool's `parameters`) in the
 * subset node-llama-cpp turns into a grammar. Sampling under that grammar can only produce text
 * of the schema's shape, whatever the model's weights.
 *
 * Taken as given, several common schemas would be silently narrowed or broken: an empty schema
 * becomes `null` only, `anyOf` is not understood, `{"type": "object"}` admits only `{}`, and a
 * type list may not hold `object` or `array`. So they are rewritten first: `anyOf` and type lists
 * become `oneOf`, schemas without constraints become "any JSON value", objects without
 * `properties` accept any members, and `definitions` references become `$defs` ones, hoisted to
 * the root where node-llama-cpp looks for them.
 *
 * What a grammar cannot express is refused rather than ignored when ignoring it would let the
 * output break the schema in a way that matters structurally (`allOf`, `not`, conditionals,
 * references outside the schema). Value constraints (`pattern`, `minimum`, most `format`s) are
 * dropped: the output then has the right shape but may miss them (docs/local-llm.md).
 */
import type { GbnfJsonSchema } from 'node-llama-cpp';
import { unsupported } from './errors.js';

type Json = Record<string, unknown>;

const PRIMITIVES = ['string', 'number', 'integer', 'boolean', 'null'] as const;
type Primitive = (typeof PRIMITIVES)[number];
const GRAMMAR_FORMATS = new Set(['date-time', 'time', 'date']);
const REFUSED = ['allOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'dependencies'] as const;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPrimitive = (type: unknown): type is Primitive => PRIMITIVES.includes(type as Primitive);
const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** Any JSON value: what a schema without constraints allows. */
const ANY: GbnfJsonSchema = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
};

function withDescription(schema: GbnfJsonSchema, source: Json): GbnfJsonSchema {
  return typeof source.description === 'string' ? { ...schema, description: source.description } : schema;
}

class Converter {
  readonly defs: Record<string, GbnfJsonSchema> = {};

  constructor(private readonly member: string) {}

  private refuse(at: string, why: string): never {
    throw unsupported(`${this.member}${at}`, why);
  }

  /** Definitions anywhere in the schema, keyed by name; a clash of two names is refused. */
  collectDefs(schema: Json, at: string): void {
    for (const key of ['$defs', 'definitions'] as const) {
      const defs = schema[key];
      if (!isObject(defs)) continue;
      for (const [name, def] of Object.entries(defs)) {
        if (name in this.defs) this.refuse(`${at}.${key}.${name}`, 'a definition name used twice');
        this.defs[name] = this.convert(def, `${at}.${key}.${name}`);
      }
    }
  }

  convert(schema: unknown, at: string): GbnfJsonSchema {
    if (schema === true) return ANY;
    if (!isObject(schema)) return this.refuse(at, 'must be a JSON Schema object');
    for (const key of REFUSED)
      if (key in schema) this.refuse(`${at}.${key}`, 'cannot be enforced by a grammar');
    this.collectDefs(schema, at);

    if (typeof schema.$ref === 'string') return withDescription(this.ref(schema.$ref, at), schema);
    if ('const' in schema) {
      if (!isScalar(schema.const)) this.refuse(`${at}.const`, 'only a string, number, boolean or null');
      return withDescription({ const: schema.const as string | number | boolean | null }, schema);
    }
    if (Array.isArray(schema.enum)) {
      if (!schema.enum.every(isScalar)) this.refuse(`${at}.enum`, 'only strings, numbers, booleans and null');
      return withDescription({ enum: schema.enum as (string | number | boolean | null)[] }, schema);
    }
    const alternatives = Array.isArray(schema.oneOf)
      ? schema.oneOf
      : Array.isArray(schema.anyOf)
        ? schema.anyOf
        : undefined;
    if (alternatives) {
      const key = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
      return withDescription(
        { oneOf: alternatives.map((s, i) => this.convert(s, `${at}.${key}[${i}]`)) },
        schema,
      );
    }
    const converted = this.typed(schema, at);
    // OpenAPI's `nullable: true`, still common in tool definitions.
    return withDescription(
      schema.nullable === true ? { oneOf: [converted, { type: 'null' }] } : converted,
      schema,
    );
  }

  private ref(ref: string, at: string): GbnfJsonSchema {
    const match = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref);
    if (!match) return this.refuse(`${at}.$ref`, 'only references to #/$defs/<name> or #/definitions/<name>');
    return { $ref: `#/$defs/${match[1]}` } as GbnfJsonSchema;
  }

  private typed(schema: Json, at: string): GbnfJsonSchema {
    const type = schema.type;
    if (Array.isArray(type)) {
      if (type.every(isPrimitive)) return { type };
      return { oneOf: type.map((t, i) => this.typed({ ...schema, type: t }, `${at}.type[${i}]`)) };
    }
    switch (type) {
      case undefined:
        if (isObject(schema.properties) || 'additionalProperties' in schema) return this.object(schema, at);
        if ('items' in schema || 'prefixItems' in schema) return this.array(schema, at);
        return ANY;
      case 'object':
        return this.object(schema, at);
      case 'array':
        return this.array(schema, at);
      case 'string':
        return this.string(schema);
      default:
        if (isPrimitive(type)) return { type };
        return this.refuse(`${at}.type`, `unknown type ${JSON.stringify(type)}`);
    }
  }

  private string(schema: Json): GbnfJsonSchema {
    if (typeof schema.format === 'string' && GRAMMAR_FORMATS.has(schema.format)) {
      return { type: 'string', format: schema.format as 'date-time' | 'time' | 'date' };
    }
    const length = (key: 'minLength' | 'maxLength') =>
      typeof schema[key] === 'number' ? { [key]: schema[key] } : {};
    return { type: 'string', ...length('minLength'), ...length('maxLength') };
  }

  private object(schema: Json, at: string): GbnfJsonSchema {
    const properties = isObject(schema.properties)
      ? Object.fromEntries(
          Object.entries(schema.properties).map(([name, s]) => [
            name,
            this.convert(s, `${at}.properties.${name}`),
          ]),
        )
      : undefined;
    const extra = schema.additionalProperties;
    // JSON Schema allows any further members unless told otherwise; node-llama-cpp allows none.
    // Declared properties are what a model should write, so only a schema without them is
    // opened up to any members.
    const additionalProperties =
      extra === undefined
        ? properties === undefined
        : isObject(extra)
          ? this.convert(extra, `${at}.additionalProperties`)
          : extra === true;
    const count = (key: 'minProperties' | 'maxProperties') =>
      typeof schema[key] === 'number' ? { [key]: schema[key] } : {};
    return {
      type: 'object',
      ...(properties ? { properties } : {}),
      ...(Array.isArray(schema.required) ? { required: schema.required as string[] } : {}),
      additionalProperties,
      ...count('minProperties'),
      ...count('maxProperties'),
    } as GbnfJsonSchema;
  }

  private array(schema: Json, at: string): GbnfJsonSchema {
    // Draft 4 to 2019-09 wrote a tuple as an `items` array; 2020-12 calls it `prefixItems`.
    const tuple = Array.isArray(schema.items)
      ? schema.items
      : Array.isArray(schema.prefixItems)
        ? schema.prefixItems
        : undefined;
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    const count = (key: 'minItems' | 'maxItems') =>
      typeof schema[key] === 'number' ? { [key]: schema[key] } : {};
    return {
      type: 'array',
      ...(tuple ? { prefixItems: tuple.map((s, i) => this.convert(s, `${at}.prefixItems[${i}]`)) } : {}),
      ...(rest !== undefined && rest !== false ? { items: this.convert(rest, `${at}.items`) } : {}),
      ...count('minItems'),
      ...count('maxItems'),
      ...(tuple && rest === false ? { maxItems: tuple.length } : {}),
    } as GbnfJsonSchema;
  }
}

/** The grammar schema for a request's JSON Schema at `member` (named in refusals). */
export function grammarSchema(schema: unknown, member: string): GbnfJsonSchema {
  const converter = new Converter(member);
  const root = converter.convert(schema, '');
  if (Object.keys(converter.defs).length === 0) return root;
  // node-llama-cpp reads `$defs` at the root only; a oneOf of one is the neutral carrier.
  return { oneOf: [root], $defs: converter.defs } as GbnfJsonSchema;
}
