/**
 * The configuration's keys, flattened from its schema in the order the schema declares them and
 * spelled as the documentation and the error messages write them: `port`, `tasks.concurrency`,
 * `blobs.s3.bucket`, `channels[].base_url`. Objects are sections whose members are keys in turn;
 * a list of objects is a section whose members are written `name[].member`; maps and lists of
 * plain values are keys of their own.
 */
import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from './schema.js';

export interface ConfigKey {
  path: string;
  schema: TSchema;
  /** A section: an object, or a list of objects, whose members follow it in the list. */
  section: boolean;
  /** The key must be given: it has no default and is not optional. */
  required: boolean;
}

/** The members of an object section, or of the objects of a list section. */
function membersOf(schema: TSchema): TSchema | undefined {
  if (schema.type === 'object' && schema.properties) return schema;
  if (schema.type === 'array' && schema.items?.type === 'object' && schema.items.properties)
    return schema.items;
  return undefined;
}

function flatten(object: TSchema, prefix: string): ConfigKey[] {
  const properties = object.properties as Record<string, TSchema>;
  const required = new Set<string>(object.required ?? []);
  return Object.entries(properties).flatMap(([name, schema]) => {
    const path = `${prefix}${name}`;
    const members = membersOf(schema);
    const key: ConfigKey = {
      path,
      schema,
      section: members !== undefined,
      required: required.has(name) && schema.default === undefined,
    };
    if (!members) return [key];
    return [key, ...flatten(members, schema.type === 'array' ? `${path}[].` : `${path}.`)];
  });
}

export function configKeys(schema: TSchema = ConfigSchema): ConfigKey[] {
  return flatten(schema, '');
}
