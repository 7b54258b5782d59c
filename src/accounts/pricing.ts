/**
 * What a request costs by the price table (config/prices.ts holds its values): a flat price per
 * key, refined per model and per action, plus tokens where the table counts them. Read by the
 * metering of synchronous requests and the pricing of tasks (metering.ts).
 */
import type { Price } from '../config/schema.js';

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
