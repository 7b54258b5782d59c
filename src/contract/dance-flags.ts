/**
 * Inline flags in `/dance/videos` text items (`a cat dancing --rs 720p --dur 5`): the origin lets
 * a prompt carry settings that are otherwise body fields. This file owns the value domains those
 * fields share with their flags, and a pure parser; merging flags into the body (a body field
 * wins) and sending the text without them are the engine's.
 */
import { Type, StringEnum, type Static } from './schema.js';
import { checkSchema } from './validate.js';
import type { Violation } from './types.js';

export const RESOLUTIONS = ['480p', '720p', '1080p'] as const;

/** The resolution of a request that names none: 480p for the lite models, 720p for the others. */
export function defaultResolution(model: unknown): '480p' | '720p' {
  return typeof model === 'string' && model.includes('-lite-') ? '480p' : '720p';
}
export const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'] as const;
export const DURATION = { minimum: 2, maximum: 12 } as const;
export const SEED = { minimum: -1, maximum: 4_294_967_295 } as const;
/** Frames are generated at 24 fps (DECISIONS 9), so that is the only rate a flag may ask for. */
export const FRAME_RATE = 24;

/** A flag is checked against the domain of the body field it sets. */
const domains = {
  resolution: StringEnum(RESOLUTIONS),
  ratio: StringEnum(RATIOS),
  duration: Type.Integer(DURATION),
  framespersecond: Type.Literal(FRAME_RATE),
  watermark: Type.Boolean(),
  seed: Type.Integer(SEED),
  camerafixed: Type.Boolean(),
};

export type FlagField = keyof typeof domains;
export type DanceFlags = { [F in FlagField]?: Static<(typeof domains)[F]> };

const FLAGS = new Map<string, FlagField>([
  ['--rs', 'resolution'],
  ['--resolution', 'resolution'],
  ['--rt', 'ratio'],
  ['--ratio', 'ratio'],
  ['--dur', 'duration'],
  ['--duration', 'duration'],
  ['--fps', 'framespersecond'],
  ['--framespersecond', 'framespersecond'],
  ['--wm', 'watermark'],
  ['--watermark', 'watermark'],
  ['--seed', 'seed'],
  ['--cf', 'camerafixed'],
  ['--camerafixed', 'camerafixed'],
]);

export interface ParsedFlags {
  flags: DanceFlags;
  /** How each flag was spelt (`--dur` or `--duration`), so later rules can name it. */
  written: Partial<Record<FlagField, string>>;
  /** The text without the flags and their values. */
  text: string;
  violations: Violation[];
}

/** Text is all a flag carries; it becomes the JSON type of its field, so the domain check reads alike. */
function typed(field: FlagField, raw: string): unknown {
  const type: unknown = (domains[field] as { type?: unknown }).type;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  return raw;
}

function without(text: string, cuts: readonly (readonly [number, number])[]): string {
  let out = '';
  let from = 0;
  for (const [start, end] of cuts) {
    out += text.slice(from, start).replace(/\s+$/, '');
    from = end;
  }
  return (out + text.slice(from)).trim();
}

/**
 * Reads the flags of one text item. `field` is the item's path (`content[0].text`); a violation
 * names the flag as written, e.g. `content[0].text --dur`. Tokens that are not known flags stay
 * in the text: a prompt may legitimately contain `--`.
 */
export function parseDanceFlags(text: string, field = 'text'): ParsedFlags {
  const tokens = [...text.matchAll(/\S+/g)];
  const flags: Record<string, unknown> = {};
  const written: Partial<Record<FlagField, string>> = {};
  const violations: Violation[] = [];
  const cuts: (readonly [number, number])[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const target = token && FLAGS.get(token[0]);
    if (!token || !target) continue;
    const name = token[0];
    const where = `${field} ${name}`;
    const next = tokens[i + 1];
    if (!next || next[0].startsWith('--')) {
      cuts.push([token.index, token.index + name.length]);
      violations.push({ field: where, rule: 'must be followed by a value' });
      continue;
    }
    i++;
    cuts.push([token.index, next.index + next[0].length]);
    const earlier = written[target];
    if (earlier) {
      violations.push({ field: where, rule: `may be given only once (already given as ${earlier})` });
      continue;
    }
    written[target] = name;
    const value = typed(target, next[0]);
    const wrong = checkSchema(domains[target], value, where);
    if (wrong.length > 0) violations.push(...wrong);
    else flags[target] = value;
  }
  return { flags: flags as DanceFlags, written, text: without(text, cuts), violations };
}
