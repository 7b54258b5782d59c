import { describe, expect, it } from 'vitest';
import { clip } from '../../src/contract/clip.js';
import { validateRequest } from '../../src/contract/validate.js';
import { invalid, valid } from './cases/clip.js';
import { checkCases } from './check-cases.js';

describe('/clip/videos contract', () => {
  checkCases([clip], invalid, valid);

  it('hands the engine camera_control as an object and fills the defaults', () => {
    const { violations, body } = validateRequest(clip, {
      action: 'text2video',
      prompt: 'a',
      camera_control: '{"type":"simple","config":{"pan":1}}',
      video_list: [{ video_url: 'https://example.com/v.mp4' }],
    });
    expect(violations).toEqual([]);
    expect(body).toMatchObject({
      mode: 'std',
      model: 'clip-v1',
      aspect_ratio: '16:9',
      camera_control: { type: 'simple', config: { pan: 1 } },
      video_list: [{ refer_type: 'base' }],
    });
  });
});
