/**
 * Thousands of random, mutated and malformed bodies against every operation. The server must
 * answer each within a few seconds with a well-formed JSON answer, and never with a fault of its
 * own (500, 502, 504): bad input is the client's, and says so with a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Providers } from '../../src/providers/index.js';
import { startServer, type TestServer, type Answer } from '../support/server.js';
import { expectShape } from '../support/expect.js';
import { Random } from '../support/random.js';
import { OPERATIONS } from '../../src/contract/table.js';
import { ErrorBody } from '../../src/contract/responses.js';
import * as serp from '../contract/cases/serp.js';
import * as clip from '../contract/cases/clip.js';
import * as dance from '../contract/cases/dance.js';
import * as maxi from '../contract/cases/maxi.js';
import * as tune from '../contract/cases/tune.js';
import * as chat from '../contract/cases/chat.js';
import * as qrart from '../contract/cases/qrart.js';
import * as identity from '../contract/cases/identity.js';

const PER_OPERATION = 300;
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const seeds = [serp, clip, dance, maxi, tune, chat, qrart, identity].flatMap((f) => f.valid);

let server: TestServer;
let token: string;

beforeAll(async () => {
  // Validation alone: no engine or channel serves any family, so nothing is generated.
  server = await startServer({ 'limits.body_bytes': 64 * 1024 }, { providers: new Providers() });
  token = await server.token();
});
afterAll(() => server.close());

async function send(path: string, body: string): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(text) as Record<string, unknown>,
    text,
  };
}

describe('fuzz', () => {
  it(`survives ${PER_OPERATION} hostile bodies per operation (seed ${SEED})`, async () => {
    const random = new Random(SEED);
    const statuses = new Map<number, number>();
    for (const operation of OPERATIONS) {
      const good = seeds.filter((s) => s.path === operation.path).map((s) => s.body);
      const bodies = Array.from({ length: PER_OPERATION }, () => {
        const base = good.length > 0 ? random.pick(good) : { action: 'retrieve_batch' };
        const roll = random.int(3);
        if (roll === 0) return JSON.stringify(random.mutate(base));
        if (roll === 1) return JSON.stringify(random.value());
        return random.malformed(JSON.stringify(base));
      });
      for (let i = 0; i < bodies.length; i += 10) {
        const answers = await Promise.all(bodies.slice(i, i + 10).map((b) => send(operation.path, b)));
        answers.forEach((answer, j) => {
          const context = `${operation.path} <- ${bodies[i + j]?.slice(0, 300)}`;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect([500, 502, 504], context).not.toContain(answer.status);
          if (answer.status >= 400) {
            expectShape(answer.body, ErrorBody);
            if (answer.status === 503)
              expect((answer.body.error as { code: string }).code, context).toBe('busy');
          }
        });
      }
    }
    // Most hostile bodies are rejected; some mutations stay valid and reach the (absent) engine.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(OPERATIONS.length * PER_OPERATION * 0.5);
  }, 240_000);
});
