import { describe, expect, it } from 'vitest';
import { tuneAudios, tunePersonas, tuneVox } from '../../src/contract/tune.js';
import { checkSchema, validateRequest } from '../../src/contract/validate.js';
import { invalid, valid } from './cases/tune.js';
import { checkCases } from './check-cases.js';

describe('/tune/audios, /tune/vox and /tune/personas contract', () =>
  checkCases([tuneAudios, tuneVox, tunePersonas], invalid, valid));

describe('/tune/audios after validation', () => {
  it('fills in the declared defaults', () => {
    const { body } = validateRequest(tuneAudios, { prompt: 'p' });
    expect(body).toMatchObject({ action: 'generate', model: 'tune-v4', custom: false, instrumental: false });
  });

  it('gives a window start of 0 only to its own action', () => {
    const { body } = validateRequest(tuneAudios, { action: 'samples', audio_id: 'a', samples_end: 9 });
    expect(body.samples_start).toBe(0);
    expect(body.overpainting_start).toBeUndefined();
  });

  it('hands engines lyric_prompt as an object', () => {
    const { body } = validateRequest(tuneAudios, { custom: true, lyric_prompt: 'rain' });
    expect(body.lyric_prompt).toEqual({ prompt: 'rain' });
  });

  it('names the model in the lyric limit', () => {
    const { violations } = validateRequest(tuneAudios, { custom: true, lyric: 'l'.repeat(3001) });
    expect(violations).toEqual([
      { field: 'lyric', rule: 'must be at most 3000 characters with model tune-v4' },
    ]);
  });
});

describe('tune response schemas', () => {
  const ids = {
    task_id: '0b7e6a1c-3f2d-4c4e-9a7b-1d2e3f4a5b6c',
    trace_id: '0b7e6a1c-3f2d-4c4e-9a7b-1d2e3f4a5b6c',
  };

  it('accepts a music envelope', () => {
    const item = {
      id: 'i1',
      model: 'tune-v4',
      state: 'succeeded',
      duration: 120.5,
      created_at: '2024-01-01T00:00:00.000Z',
    };
    expect(
      checkSchema(tuneAudios.response, { success: true, ...ids, data: [item, { ...item, id: 'i2' }] }),
    ).toEqual([]);
  });

  it('accepts a vocal extraction envelope', () => {
    const data = {
      id: 'v1',
      source_clip_id: 'a1',
      status: 'complete',
      vocal_audio_url: 'https://example.com/v.mp3',
      vocal_start_s: 0,
      vocal_end_s: 30,
      wave_response: { waveform_aggregates: [{ data: [[0, 1, 2]], mip_map_level: 0 }] },
    };
    expect(checkSchema(tuneVox.response, { success: true, ...ids, data })).toEqual([]);
  });
});
