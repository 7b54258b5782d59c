import { expect } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { checkSchema } from '../../src/contract/validate.js';
import { ErrorBody } from '../../src/contract/responses.js';
import type { Answer } from './server.js';

/** The answer matches `schema` (every member checked, as the OpenAPI document promises). */
export function expectShape(body: unknown, schema: TSchema): void {
  expect(checkSchema(schema, structuredClone(body))).toEqual([]);
}

/** The answer is the one error body of the service, with this status and code. */
export function expectError(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: (answer.body.error as { code?: string } | undefined)?.code }).toEqual(
    {
      status,
      code,
    },
  );
  expectShape(answer.body, ErrorBody);
  expect(answer.body.trace_id).toBe(answer.headers.get('x-trace-id'));
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The field names of a 400 answer's details. */
export function fieldsOf(answer: Answer): string[] {
  const details = (answer.body.error as { details?: { field: string }[] } | undefined)?.details ?? [];
  return details.map((d) => d.field);
}
