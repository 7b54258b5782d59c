/**
 * The default price table, in credits. Operators override any key in `prices`; a key may be a
 * flat number or refined per model and per action. Credits are abstract units: an operator maps
 * them to money outside the service. What a request costs by this table is worked out in
 * accounts/pricing.ts.
 */
import type { Price } from './schema.js';

export const DEFAULT_PRICES: Record<string, Price> = {
  'serp.web': 1,
  // Video by what is made: 5 s at 720p costs 20, as a flat 20 did; longer and sharper cost more.
  'clip.videos': {
    default: 0,
    models: { 'clip-v2-master': 20, 'clip-v2-1-master': 20, 'clip-video-o1': 20 },
    per_second: { '720p': 4, '1080p': 8 },
  },
  // The lite models' default 480p makes 5 s cost 10, as their flat price was.
  'dance.videos': { default: 0, per_second: { '480p': 2, '720p': 4, '1080p': 8 } },
  'maxi.videos': 20,
  'tune.audios': { default: 10, actions: { concat: 2, stems: 5, all_stems: 8 } },
  'tune.vox': 5,
  'tune.personas': 0,
  'chat.chatmodel': { default: 0, per_1k: { input: 1, output: 2 } },
  'chat.moon': { default: 0, per_1k: { input: 1, output: 2 } },
  'qrart.tasks': { default: 0, actions: { generate: 5 } },
  'identity.check': 2,
  'identity.ocr': 2,
  'tasks.retrieve': 0,
};
