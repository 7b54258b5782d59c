/**
 * The 503 `busy` of a family or a model that nothing on this server serves. It names the
 * configuration keys to set, read from the channel types of the configuration schema, and the
 * page that explains them, so that an operator can act on it without reading the code.
 */
import type { Family } from '../contract/types.js';
import type { Config } from '../config/index.js';
import { CHANNEL_TYPES } from '../config/schema.js';
import { ServiceError } from '../errors.js';

/** Where each family's engine and channels are explained. */
const DOCS: Readonly<Record<Family, readonly string[]>> = {
  serp: ['docs/search.md'],
  clip: ['docs/video.md'],
  dance: ['docs/video.md'],
  maxi: ['docs/video.md'],
  tune: ['docs/music.md'],
  chat: ['docs/chat.md', 'docs/local-llm.md'],
  qrart: ['docs/qrart.md'],
  identity: ['docs/identity.md'],
};

/** A channel member as the configuration reference writes it; typed, so that it cannot drift. */
function channelKey(member: keyof Config['channels'][number]): string {
  return `channels[].${member}`;
}

function see(family: Family): string {
  return `see ${DOCS[family].join(', ')}`;
}

/** How to add a channel of `family`: each type that serves it, with the member that type needs. */
function howToServe(family: Family): string | undefined {
  const ways = Object.entries(CHANNEL_TYPES)
    .filter(([, { serves }]) => serves.includes(family))
    .map(
      ([type, { needs, is }]) =>
        `${channelKey('type')}: ${type}${needs ? ` with ${channelKey(needs)}` : ''} (${is})`,
    );
  if (ways.length === 0) return undefined;
  return `add a channel with ${channelKey('capability')}: ${family} and ${ways.length > 1 ? 'either ' : ''}${ways.join(', or ')}`;
}

/** No engine and no channel serves the family of `path` on this server. */
export function unservedFamily(family: Family, path: string): ServiceError {
  const how = howToServe(family);
  return new ServiceError(
    'busy',
    `no engine or channel serves ${path} on this server${how ? `: ${how}` : ''}; ${see(family)}`,
  );
}

/** Channels serve the family, but none lists `model` (a model, a search type or an operation). */
export function unservedModel(family: Family, model: string): ServiceError {
  return new ServiceError(
    'busy',
    `no ${family} channel serves ${model}: list it in ${channelKey('models')} of a channel with ` +
      `${channelKey('capability')}: ${family} (\`*\` matches any run of characters); ${see(family)}`,
  );
}
