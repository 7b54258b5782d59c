/**
 * The origin's names, as data: the hosted service this interface was derived from answers the
 * same operations under its own paths and model names. Its clients (SDKs, CLIs, MCP servers with a
 * configurable base URL) work against Switchyard through these aliases, and an `origin` channel
 * relays to the origin itself by reading the same tables the other way. Nothing else in the code
 * knows an origin name.
 */

/** Each origin path and the path of ours it stands for (same permission, price and usage). */
export const ORIGIN_PATHS: Readonly<Record<string, string>> = {
  '/serp/google': '/serp/web',
  '/suno/audios': '/tune/audios',
  '/suno/vox': '/tune/vox',
  '/suno/persona': '/tune/personas',
  '/suno/tasks': '/tune/tasks',
  '/kling/videos': '/clip/videos',
  '/kling/tasks': '/clip/tasks',
  '/seedance/videos': '/dance/videos',
  '/seedance/tasks': '/dance/tasks',
  '/hailuo/videos': '/maxi/videos',
  '/hailuo/tasks': '/maxi/tasks',
  '/openai/chat/completions': '/chatmodel/chat/completions',
  '/kimi/chat/completions': '/moon/chat/completions',
  '/qrart/generate': '/qrart/tasks',
};

/**
 * Our path to the origin's; a path the origin shares with us (identity, QR retrieval) is itself.
 * `/qrart/tasks` is both QR generation and retrieval here, `/qrart/generate` and `/qrart/tasks`
 * there: `generation` says which is meant.
 */
export function originPathOf(ours: string, generation = false): string {
  for (const [origin, path] of Object.entries(ORIGIN_PATHS)) {
    if (path !== ours) continue;
    if (origin === '/qrart/generate' && !generation) continue;
    return origin;
  }
  return ours;
}

/** A model family's prefix at the origin and here: `chirp-v4` is `tune-v4`. */
interface Prefixes {
  origin: string;
  ours: string;
}

const PREFIXES: readonly Prefixes[] = [
  { origin: 'chirp-', ours: 'tune-' },
  { origin: 'kling-', ours: 'clip-' },
  { origin: 'doubao-seedance-', ours: 'dance-' },
  { origin: 'minimax-', ours: 'maxi-' },
  { origin: 'gpt-', ours: 'chatmodel-' },
  { origin: 'kimi-', ours: 'moon-' },
];

/** Models the two sides spell differently; both ways. Left: the origin's name; right: ours. */
export const SPELLED: readonly (readonly [string, string])[] = [
  ['kling-o1', 'clip-video-o1'],
  ['gpt-3.5-turbo-16k', 'chatmodel-35-turbo-16k'],
];

/**
 * The origin's models that have no local counterpart, each served by the nearest local model.
 * One way only: an answer names the model the client sent, so the reverse is never needed.
 */
export const NEAREST: readonly (readonly [string, string])[] = [
  ['chirp-v5-5', 'tune-v5'],
  ['kling-v2-6', 'clip-v2-5-turbo'],
  ['kling-v3', 'clip-v2-5-turbo'],
  ['kling-v3-omni', 'clip-video-o1'],
  ['doubao-seedance-2-0-260128', 'dance-1-5-pro-251215'],
  ['doubao-seedance-2-5-260628', 'dance-1-5-pro-251215'],
  ['doubao-seedance-2-0-fast-260128', 'dance-1-0-pro-fast-251015'],
  ['doubao-seedance-2-0-mini-260615', 'dance-1-0-pro-fast-251015'],
  ['gpt-5.5', 'chatmodel-5.4'],
  ['gpt-4-turbo', 'chatmodel-4'],
  ['kimi-k3', 'moon-k2.5'],
  ['kimi-k2.6', 'moon-k2.5'],
];

/**
 * Our name for an origin model name: a pair's, else the prefix swapped, else the name as it is
 * (`o1`, `o3-mini`: the same on both sides), for the validator to judge.
 */
export function ourModel(name: string): string {
  const pair = [...SPELLED, ...NEAREST].find(([origin]) => origin === name);
  if (pair) return pair[1];
  const family = PREFIXES.find((p) => name.startsWith(p.origin));
  return family ? family.ours + name.slice(family.origin.length) : name;
}

/** The origin's name for one of our models. */
export function originModel(name: string): string {
  const pair = SPELLED.find(([, ours]) => ours === name);
  if (pair) return pair[0];
  const family = PREFIXES.find((p) => name.startsWith(p.ours));
  return family ? family.origin + name.slice(family.ours.length) : name;
}

/** Every model name of ours in a serialized JSON text, as the origin's: `"model":"tune-v4"`. */
const MODEL_MEMBER = /"model":"([^"\\]+)"/g;

/**
 * Renames the `model` members of JSON text (a whole answer, or one line of a stream) to the
 * origin's names; `sent` maps our name back to the very name a client sent, where it sent one.
 */
export function renameModels(text: string, sent?: { ours: string; theirs: string }): string {
  return text.replace(MODEL_MEMBER, (_whole, name: string) => {
    const theirs = sent && name === sent.ours ? sent.theirs : originModel(name);
    return `"model":${JSON.stringify(theirs)}`;
  });
}

/** A JSON value from the origin with every `model` member named as ours. */
export function withOurModels(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withOurModels);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === 'model' && typeof member === 'string' ? ourModel(member) : withOurModels(member),
    ]),
  );
}
