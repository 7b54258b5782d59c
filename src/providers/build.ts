/**
 * The providers of a server, built from its configuration: each capability with channels gets a
 * router over them and a backend per channel.
 */
import type { Config } from '../config/index.js';
import { ChannelRouter } from './router.js';
import { ChatCapability } from './chat/capability.js';
import { OpenAiCompatible } from './chat/openai-compatible.js';
import { LocalModel } from './chat/local-model.js';
import type { ChatBackend } from './chat/types.js';
import { Providers } from './index.js';

type ChannelConfig = Config['channels'][number];

function chatBackend(channel: ChannelConfig): ChatBackend {
  switch (channel.type) {
    case 'openai-compatible':
      return new OpenAiCompatible(channel);
    case 'local-llm':
      return new LocalModel(channel);
  }
}

export function providersFrom(config: Config): Providers {
  const chat = config.channels.filter((c) => c.capability === 'chat');
  if (chat.length === 0) return new Providers();
  const router = new ChannelRouter(chat, {
    retries: config.routing.retries,
    backoffMs: config.routing.backoff_ms,
    cooldownAfter: config.routing.cooldown_after,
    cooldownSeconds: config.routing.cooldown_seconds,
  });
  const backends = new Map(chat.map((c) => [c.name, chatBackend(c)]));
  return new Providers({ chat: new ChatCapability(router, backends) });
}
