/**
 * Every contract case, sent to the real server over HTTP: a body that breaks a rule gets 400
 * naming the field; a valid body passes validation and reaches its capability.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Providers } from '../../src/providers/index.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectError, fieldsOf } from '../support/expect.js';
import { OPERATIONS } from '../../src/contract/table.js';
import type { InvalidCase, ValidCase } from '../contract/cases/types.js';
import * as serp from '../contract/cases/serp.js';
import * as clip from '../contract/cases/clip.js';
import * as dance from '../contract/cases/dance.js';
import * as maxi from '../contract/cases/maxi.js';
import * as tune from '../contract/cases/tune.js';
import * as chat from '../contract/cases/chat.js';
import * as qrart from '../contract/cases/qrart.js';
import * as identity from '../contract/cases/identity.js';

const families = [serp, clip, dance, maxi, tune, chat, qrart, identity];
const invalid: InvalidCase[] = families.flatMap((f) => f.invalid);
const valid: ValidCase[] = families.flatMap((f) => f.valid);

let server: TestServer;
let token: string;

beforeAll(async () => {
  // Validation alone: no engine or channel serves any family, so nothing is generated.
  server = await startServer({}, { providers: new Providers() });
  token = await server.token();
});
afterAll(() => server.close());

describe('contract over HTTP', () => {
  it('has cases for every operation', () => {
    const covered = new Set([...invalid, ...valid].map((c) => c.path));
    const taskEndpoints = OPERATIONS.filter((o) => o.kind === 'retrieval').map((o) => o.path);
    for (const operation of OPERATIONS) {
      if (!taskEndpoints.includes(operation.path)) expect(covered, operation.path).toContain(operation.path);
    }
  });

  it.each(invalid.map((c) => [`${c.path}: ${c.name}`, c] as const))('400 for %s', async (_name, c) => {
    const answer = await server.post(c.path, c.body, token);
    expectError(answer, 400, 'bad_request');
    expect(fieldsOf(answer)).toContain(c.field);
    expect((answer.body.error as { message: string }).message).toContain(`${c.field}:`);
  });

  it.each(valid.map((c) => [`${c.path}: ${c.name}`, c] as const))(
    'passes validation: %s',
    async (_name, c) => {
      const answer = await server.post(c.path, c.body, token);
      expect(answer.status, answer.text).not.toBe(400);
      // No engine or channel is configured in this server: valid generations are answered busy,
      // retrievals are answered from the task store.
      expect([200, 404, 503]).toContain(answer.status);
      if (answer.status === 503) expectError(answer, 503, 'busy');
    },
  );
});

describe('task retrieval contract', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['action missing', {}, 'action'],
    ['action unknown', { action: 'fetch' }, 'action'],
    ['retrieve without id', { action: 'retrieve' }, 'id'],
    ['id not a UUID', { action: 'retrieve', id: 'abc' }, 'id'],
    ['ids with retrieve', { action: 'retrieve', id: '00000000-0000-4000-8000-000000000000', ids: [] }, 'ids'],
    [
      'id with retrieve_batch',
      { action: 'retrieve_batch', id: '00000000-0000-4000-8000-000000000000' },
      'id',
    ],
    ['ids empty', { action: 'retrieve_batch', ids: [] }, 'ids'],
    [
      'ids over 500',
      { action: 'retrieve_batch', ids: Array(501).fill('00000000-0000-4000-8000-000000000000') },
      'ids',
    ],
    ['limit over 500', { action: 'retrieve_batch', limit: 501 }, 'limit'],
    [
      'limit with ids',
      { action: 'retrieve_batch', ids: ['00000000-0000-4000-8000-000000000000'], limit: 5 },
      'limit',
    ],
    ['offset negative', { action: 'retrieve_batch', offset: -1 }, 'offset'],
    [
      'time window reversed',
      { action: 'retrieve_batch', created_at_min: 20, created_at_max: 10 },
      'created_at_max',
    ],
    ['unknown member', { action: 'retrieve_batch', page: 2 }, 'page'],
  ];
  for (const path of ['/tune/tasks', '/clip/tasks', '/dance/tasks', '/maxi/tasks']) {
    it.each(cases)(`${path}: 400 for %s`, async (_name, body, field) => {
      const answer = await server.post(path, body, token);
      expectError(answer, 400, 'bad_request');
      expect(fieldsOf(answer)).toContain(field);
    });
  }
});
