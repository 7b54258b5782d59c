import { describe, expect, it } from 'vitest';
import { qrart } from '../../src/contract/qrart.js';
import { checkSchema, validateRequest } from '../../src/contract/validate.js';
import { invalid, valid } from './cases/qrart.js';
import { checkCases } from './check-cases.js';

describe('/qrart/tasks contract', () => checkCases([qrart], invalid, valid));

const ID = '0b7e6a1c-3f2d-4c4e-9a7b-1d2e3f4a5b6c';

describe('/qrart/tasks after validation', () => {
  it('fills in the generation defaults', () => {
    const { body } = validateRequest(qrart, { content: 'hello' });
    expect(body).toMatchObject({ action: 'generate', type: 'text', ecl: 'H', aspect_ratio: '1:1' });
  });

  it('keeps generation defaults out of a retrieval', () => {
    const { body, violations } = validateRequest(qrart, { action: 'retrieve', id: ID });
    expect(violations).toEqual([]);
    expect(body).toEqual({ action: 'retrieve', id: ID });
  });

  it('tells a task from a retrieval, with or without the default filled in', () => {
    expect(qrart.kindOf?.({ content: 'x' })).toBe('task');
    expect(qrart.kindOf?.({ action: 'generate' })).toBe('task');
    expect(qrart.kindOf?.({ action: 'retrieve_batch' })).toBe('retrieval');
  });
});

describe('qrart response schema', () => {
  const task = {
    id: ID,
    _id: '65a1f0c2e4b0a1b2c3d4e5f6',
    trace_id: ID,
    request: { content: 'hello', ecl: 'H', type: 'text', ratio: null, timeout: null, callback_url: null },
    response: {
      seed: 7,
      success: true,
      image_url: 'https://example.com/q.png',
      image_width: 768,
      image_height: 768,
    },
    state: 'succeeded',
    created_at: 1700000000,
    started_at: 1700000001,
    finished_at: 1700000009,
    elapsed: 9,
  };

  it('accepts a task, a batch and an immediate answer', () => {
    expect(checkSchema(qrart.response, task)).toEqual([]);
    expect(checkSchema(qrart.response, { items: [task], count: 1 })).toEqual([]);
    expect(checkSchema(qrart.response, { success: true, task_id: ID, trace_id: ID })).toEqual([]);
  });
});
