import { describe, expect, it } from 'vitest';
import { dance } from '../../src/contract/dance.js';
import { parseDanceFlags } from '../../src/contract/dance-flags.js';
import { validateRequest } from '../../src/contract/validate.js';
import { invalid, valid } from './cases/dance.js';
import { checkCases } from './check-cases.js';

const text = (t: string) => ({ type: 'text', text: t });
const image = { type: 'image_url', image_url: { url: 'https://example.com/a.png' } };

describe('/dance/videos contract', () => {
  checkCases([dance], invalid, valid);

  it('fills the defaults that depend on the model', () => {
    const lite = validateRequest(dance, { model: 'dance-1-0-lite-i2v-250428', content: [image] });
    expect(lite.violations).toEqual([]);
    expect(lite.body).toMatchObject({
      resolution: '480p',
      ratio: '16:9',
      generate_audio: false,
      return_last_frame: false,
      service_tier: 'default',
      execution_expires_after: 172800,
      content: [{ role: 'first_frame' }],
    });
    const pro = validateRequest(dance, { model: 'dance-1-0-pro-250528', content: [text('a')] });
    expect(pro.body).toMatchObject({ resolution: '720p', ratio: '16:9' });
  });

  it('leaves a default unset where a flag gives the value, so the engine can merge it', () => {
    const { violations, body } = validateRequest(dance, {
      model: 'dance-1-0-pro-250528',
      content: [text('a --rs 1080p --rt 1:1')],
    });
    expect(violations).toEqual([]);
    expect(body.resolution).toBeUndefined();
    expect(body.ratio).toBeUndefined();
    expect(body.content).toEqual([text('a --rs 1080p --rt 1:1')]);
  });
});

describe('dance inline flags', () => {
  it('reads short and long forms into body fields and strips them from the text', () => {
    const parsed = parseDanceFlags(
      'a cat --rs 720p dancing --ratio 9:16\n--dur 5 --fps 24 --wm true --seed -1 --cf false',
    );
    expect(parsed.flags).toEqual({
      resolution: '720p',
      ratio: '9:16',
      duration: 5,
      framespersecond: 24,
      watermark: true,
      seed: -1,
      camerafixed: false,
    });
    expect(parsed.written).toMatchObject({ resolution: '--rs', ratio: '--ratio' });
    expect(parsed.text).toBe('a cat dancing');
    expect(parsed.violations).toEqual([]);
  });

  it('names a bad flag by its path and spelling, and drops it from the flags', () => {
    const parsed = parseDanceFlags('--dur 20 a cat', 'content[1].text');
    expect(parsed.flags).toEqual({});
    expect(parsed.text).toBe('a cat');
    expect(parsed.violations).toEqual([{ field: 'content[1].text --dur', rule: 'must be at most 12' }]);
  });
});
