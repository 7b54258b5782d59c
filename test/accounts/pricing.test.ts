/**
 * Prices by what a request makes (accounts/pricing.ts) and budget windows in a time zone
 * (accounts/budget-windows.ts), as pure functions: each counted part rounded up, a band the table
 * leaves out priced at its dearest, cached chat tokens at their own rate, and windows that start at
 * local midnight across a change of summer time.
 */
import { describe, expect, it } from 'vitest';
import { chargeFor, quoteOf } from '../../src/accounts/pricing.js';
import { windowOf } from '../../src/accounts/budget-windows.js';
import type { Price } from '../../src/config/schema.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('quotes', () => {
  const table: Record<string, Price> = {
    'dance.videos': { default: 2, per_second: { '480p': 1, '720p': 2.5 } },
    'tune.audios': { default: 0, actions: { stems: 5 }, per_song: 3 },
    'tune.vox': { per_minute: 1.5 },
    'qrart.tasks': { default: 1, per_image: 4 },
    'serp.web': 1,
  };

  it('counts seconds by band, the body over its flags, frames at 24 a second', () => {
    const text = (t: string) => [{ type: 'text', text: t }];
    expect(
      quoteOf(table, 'dance.videos', { resolution: '720p', duration: 3, content: text('a cat') }),
    ).toEqual({
      credits: 2 + 8,
      basis: '2 per request + 3 s of 720p at 2.5/s (8)',
    });
    expect(quoteOf(table, 'dance.videos', { content: text('a cat --rs 480p --dur 7') }).credits).toBe(2 + 7);
    expect(
      quoteOf(table, 'dance.videos', { resolution: '480p', content: text('a cat --rs 720p') }).credits,
    ).toBe(2 + 5);
    expect(
      quoteOf(table, 'dance.videos', { resolution: '480p', frames: 121, content: text('x') }).credits,
    ).toBe(2 + Math.ceil(121 / 24));
    // A lite model's default resolution is 480p, the others' 720p.
    expect(
      quoteOf(table, 'dance.videos', { model: 'dance-1-0-lite-t2v-250428', content: text('x') }).credits,
    ).toBe(2 + 5);
    expect(
      quoteOf(table, 'dance.videos', { model: 'dance-1-0-pro-250528', content: text('x') }).credits,
    ).toBe(2 + 13);
    // 1080p is not in the table: priced as its dearest band, never free.
    expect(
      quoteOf(table, 'dance.videos', { resolution: '1080p', duration: 4, content: text('x') }).credits,
    ).toBe(2 + 10);
  });

  it('counts songs per action, minutes at the model longest, images, and flat prices', () => {
    expect(quoteOf(table, 'tune.audios', { action: 'generate' }).credits).toBe(6);
    expect(quoteOf(table, 'tune.audios', { action: 'concat' }).credits).toBe(3);
    expect(quoteOf(table, 'tune.audios', { action: 'stems' }).credits).toBe(5);
    // Two songs of at most 4 minutes (tune-v4), and of 8 (tune-v5).
    expect(quoteOf(table, 'tune.vox', { model: 'tune-v4' }).credits).toBe(12);
    expect(quoteOf(table, 'tune.vox', { model: 'tune-v5' }).credits).toBe(24);
    expect(quoteOf(table, 'qrart.tasks', {})).toEqual({
      credits: 5,
      basis: '1 per request + 1 image at 4 (4)',
    });
    expect(quoteOf(table, 'serp.web', {})).toEqual({ credits: 1, basis: '1 per request' });
  });

  it('charges chat tokens by input, output and cached input', () => {
    const charge = chargeFor({ chat: { per_1k: { input: 2, output: 4, cached: 0.5 } } }, 'chat', {
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 100_000,
    });
    const usage = {
      prompt_tokens: 3000,
      completion_tokens: 500,
      prompt_tokens_details: { cached_tokens: 2000 },
    };
    // 1000 uncached at 2, 2000 cached at 0.5, 500 out at 4: 2 + 1 + 2.
    expect(charge.actual(usage)).toBe(5);
    // Uncached, the same prompt costs 6 for its input alone.
    expect(charge.actual({ ...usage, prompt_tokens_details: { cached_tokens: 0 } })).toBe(8);
    const older = chargeFor({ chat: { per_1k_tokens: { prompt: 1, completion: 2 } } }, 'chat', {
      max_tokens: 100_000,
    });
    expect(older.actual({ prompt_tokens: 1000, completion_tokens: 1000 })).toBe(3);
  });
});

describe('budget windows', () => {
  it('start and end at local midnight, across a change of summer time', () => {
    // Paris moved its clocks forward on 29 March 2026: that day lasts 23 hours.
    const day = windowOf('day', Date.parse('2026-03-29T12:00:00Z'), 'Europe/Paris');
    expect([iso(day.startsAt), iso(day.resetsAt)]).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ]);
    const week = windowOf('week', Date.parse('2026-11-29T12:00:00Z'), 'UTC');
    expect([iso(week.startsAt), iso(week.resetsAt)]).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-30T00:00:00.000Z',
    ]);
    const month = windowOf('month', Date.parse('2026-12-31T20:00:00Z'), 'Asia/Shanghai');
    expect([iso(month.startsAt), iso(month.resetsAt)]).toEqual([
      '2026-12-31T16:00:00.000Z',
      '2027-01-31T16:00:00.000Z',
    ]);
  });
});
