/**
 * The default price table, in credits. Operators override any key in `prices`; a key may be a
 * flat number or refined per model and per action. Credits are abstract units: an operator maps
 * them to money outside the service. What a request costs by this table is worked out in
 * accounts/pricing.ts.
 */
import type { Price } from './schema.js';

export const DEFAULT_PRICES: Record<string, Price> = {
  'serp.web': 1,
  'clip.videos': {
    default: 20,
    models: { 'clip-v2-master': 40, 'clip-v2-1-master': 40, 'clip-video-o1': 40 },
  },
  'dance.videos': {
    default: 20,
    models: { 'dance-1-0-lite-t2v-250428': 10, 'dance-1-0-lite-i2v-250428': 10 },
  },
  'maxi.videos': 20,
  'tune.audios': { default: 10, actions: { concat: 2, stems: 5, all_stems: 8 } },
  'tune.vox': 5,
  'tune.personas': 0,
  'chat.chatmodel': { default: 0, per_1k_tokens: { prompt: 1, completion: 2 } },
  'chat.moon': { default: 0, per_1k_tokens: { prompt: 1, completion: 2 } },
  'qrart.tasks': { default: 0, actions: { generate: 5 } },
  'identity.check': 2,
  'identity.ocr': 2,
  'tasks.retrieve': 0,
};
