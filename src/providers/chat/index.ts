/**
 * Chat completions, both families, on channels only: upstreams speaking OpenAI chat completions,
 * upstreams of this same interface, and GGUF models run in-process (`local.ts`). Without a chat
 * channel the family answers 503 saying how to add one.
 */
import type { CapabilityPlugin, ChannelConfig } from '../plugin.js';
import { channelsOf } from '../plugin.js';
import { ChannelRouter } from '../router.js';
import { ChatCapability } from './capability.js';
import { OpenAiCompatible } from './channels/openai-compatible.js';
import { ChatPassthrough } from './channels/passthrough.js';
import { LocalModel } from './local.js';
import type { ChatBackend } from './types.js';

function backendOf(channel: ChannelConfig): ChatBackend {
  switch (channel.type) {
    case 'local-llm':
      return new LocalModel(channel);
    case 'passthrough':
    case 'origin':
      return new ChatPassthrough(channel);
    default:
      return new OpenAiCompatible(channel);
  }
}

export const chat: CapabilityPlugin = {
  families: ['chat'],
  build(config, ports) {
    const channels = channelsOf(config, 'chat');
    if (channels.length === 0) return {};
    const backends = new Map(channels.map((c) => [c.name, backendOf(c)]));
    return { chat: new ChatCapability(new ChannelRouter(channels, ports.policy), backends) };
  },
};
