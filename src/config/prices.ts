/**
 * The default price table, in credits. Operators override any key in `prices`; a key may be a
 * flat number or refined per model and per action. Credits are abstract units: an operator maps
 * them to money outside the service.
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

/** The credits one request costs: a model price wins over an action price, both over the default. */
export function priceOf(
  table: Record<string, Price>,
  key: string,
  model?: unknown,
  action?: unknown,
): number {
  const price = table[key];
  if (price === undefined) return 0;
  if (typeof price === 'number') return price;
  if (typeof model === 'string' && price.models?.[model] !== undefined) return price.models[model];
  if (typeof action === 'string' && price.actions?.[action] !== undefined) return price.actions[action];
  return price.default ?? 0;
}

export interface TokenCount {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What a request holds before it runs, and what it costs once its token usage is known. */
export interface Charge {
  hold: number;
  actual(usage: TokenCount | undefined): number;
}

/** Answers without an explicit cap may run this long (the common default of OpenAI-like APIs). */
const DEFAULT_COMPLETION_CAP = 4096;

/** Prompt tokens, over-estimated from the text (a token is rarely under three characters). */
function promptTokensAtMost(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  let characters = 0;
  for (const message of messages) {
    const content = message.content;
    if (typeof content === 'string') characters += content.length;
    else if (Array.isArray(content)) {
      for (const part of content as { text?: unknown }[])
        if (typeof part.text === 'string') characters += part.text.length;
    }
  }
  return Math.ceil(characters / 3) + 16 * messages.length;
}

/**
 * The charge of a request: its flat price, plus its tokens where the price table counts them
 * (`per_1k_tokens`). The hold covers the most the request can use (its prompt, and its completion
 * cap times `n`); the actual cost is settled from the usage the answer reports.
 */
export function chargeFor(table: Record<string, Price>, key: string, body: Record<string, unknown>): Charge {
  const base = priceOf(table, key, body.model, body.action);
  const price = table[key];
  const rates = typeof price === 'object' ? price.per_1k_tokens : undefined;
  if (!rates) return { hold: base, actual: () => base };
  const cost = (prompt: number, completion: number) =>
    base + Math.ceil((prompt * rates.prompt + completion * rates.completion) / 1000);
  const cap = Number(body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_COMPLETION_CAP);
  const hold = cost(promptTokensAtMost(body), cap * Number(body.n ?? 1));
  return {
    hold,
    actual: (usage) => (usage ? Math.min(hold, cost(usage.prompt_tokens, usage.completion_tokens)) : hold),
  };
}
