/**
 * What a request costs by the price table (config/prices.ts holds its values): a flat price per
 * key, refined per model and per action, plus what the request makes where the table counts it:
 * tokens of chat, seconds of video by resolution band, songs or minutes of music, images. Read by
 * the metering of synchronous requests and the quotes of tasks (metering.ts).
 */
import type { Price } from '../config/schema.js';
import { musicMinutesAtMost, songsOf, videoMeasure } from './quote-measures.js';

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
  /** Of the prompt's tokens, those the upstream read from its cache. */
  prompt_tokens_details?: { cached_tokens?: number };
}

/** A task's price, fixed at its submission, and how it was reckoned. */
export interface Quote {
  credits: number;
  basis: string;
}

type PriceRules = Exclude<Price, number>;

/** Credits for `count` units at `rate`, whole credits, never less than the units cost. */
const units = (rate: number, count: number) => Math.ceil(rate * count - 1e-9);

/** The part of a task's price that counts what the request makes, with how it was counted. */
function madeParts(price: PriceRules, key: string, body: Record<string, unknown>): [number, string][] {
  const parts: [number, string][] = [];
  const video = price.per_second ? videoMeasure(key, body) : undefined;
  if (price.per_second && video) {
    // A band the table does not list costs what its dearest band does, never nothing.
    const rate = price.per_second[video.band] ?? Math.max(...Object.values(price.per_second));
    parts.push([units(rate, video.seconds), `${video.seconds} s of ${video.band} at ${rate}/s`]);
  }
  if (price.per_song !== undefined) {
    const songs = songsOf(body.action ?? 'generate');
    parts.push([units(price.per_song, songs), `${songs} songs at ${price.per_song}`]);
  }
  if (price.per_minute !== undefined) {
    const minutes = musicMinutesAtMost(body);
    parts.push([units(price.per_minute, minutes), `at most ${minutes} min at ${price.per_minute}/min`]);
  }
  if (price.per_image !== undefined) parts.push([units(price.per_image, 1), `1 image at ${price.per_image}`]);
  return parts;
}

/** A task's price: the table's price for its model or action, plus what it makes. */
export function quoteOf(table: Record<string, Price>, key: string, body: Record<string, unknown>): Quote {
  const base = priceOf(table, key, body.model, body.action);
  const price = table[key];
  const parts = typeof price === 'object' ? madeParts(price, key, body) : [];
  if (parts.length === 0) return { credits: base, basis: `${base} per request` };
  const credits = parts.reduce((sum, [c]) => sum + c, base);
  const made = parts.map(([c, how]) => `${how} (${c})`).join(' + ');
  return { credits, basis: base > 0 ? `${base} per request + ${made}` : made };
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

/** Credits per 1,000 tokens: `per_1k`, or the older `per_1k_tokens` (cached tokens as the rest). */
function tokenRates(price: Price | undefined): { input: number; output: number; cached: number } | undefined {
  if (typeof price !== 'object') return undefined;
  if (price.per_1k) return { ...price.per_1k, cached: price.per_1k.cached ?? price.per_1k.input };
  if (price.per_1k_tokens)
    return {
      input: price.per_1k_tokens.prompt,
      output: price.per_1k_tokens.completion,
      cached: price.per_1k_tokens.prompt,
    };
  return undefined;
}

/**
 * The charge of a request: its flat price, plus its tokens where the price table counts them
 * (`per_1k`: input, output and cached input). The hold covers the most the request can use (its
 * prompt, uncached, and its completion cap times `n`); the actual cost is settled from the usage
 * the answer reports.
 */
export function chargeFor(table: Record<string, Price>, key: string, body: Record<string, unknown>): Charge {
  const base = priceOf(table, key, body.model, body.action);
  const rates = tokenRates(table[key]);
  if (!rates) return { hold: base, actual: () => base };
  const cost = (prompt: number, completion: number, cached: number) =>
    base +
    Math.ceil(((prompt - cached) * rates.input + cached * rates.cached + completion * rates.output) / 1000);
  const cap = Number(body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_COMPLETION_CAP);
  const hold = cost(promptTokensAtMost(body), cap * Number(body.n ?? 1), 0);
  const cachedOf = (usage: TokenCount) =>
    Math.min(usage.prompt_tokens, Math.max(0, Number(usage.prompt_tokens_details?.cached_tokens ?? 0)));
  return {
    hold,
    actual: (usage) =>
      usage ? Math.min(hold, cost(usage.prompt_tokens, usage.completion_tokens, cachedOf(usage))) : hold,
  };
}
