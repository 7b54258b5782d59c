/**
 * A chat channel to an upstream that speaks this same interface (another Switchyard): each of our
 * chat families is a chat completions endpoint of its own there (`/chatmodel/chat/completions`,
 * `/moon/chat/completions`), so a request goes to the endpoint of the family its model belongs
 * to, through the OpenAI-compatible client (streams, usage and the model rename included). A
 * channel of type `origin` reaches the origin's endpoints of those families
 * (`/openai/chat/completions`, `/kimi/chat/completions`) with its model names, unless the
 * channel's own `model_map` names another.
 */
import { originModel, originPathOf } from '../../../compat/origin.js';
import { CHAT_FAMILIES } from '../../../contract/chat.js';
import type { ChatBackend, ChatCompletion, ChatCompletionChunk, ChatRequest } from '../types.js';
import type { StopSignal } from '../../stop-signal.js';
import { OpenAiCompatible, type OpenAiChannel } from './openai-compatible.js';

export class ChatPassthrough implements ChatBackend {
  /** Each model of ours to its family's endpoint upstream. */
  private readonly endpoints: ReadonlyMap<string, OpenAiCompatible>;
  private readonly first: OpenAiCompatible;

  constructor(channel: OpenAiChannel & { type?: string }) {
    const base = (channel.base_url ?? '').replace(/\/+$/, '');
    const origin = channel.type === 'origin';
    const clients = CHAT_FAMILIES.map((family) => {
      const ours = `/${family.name}/chat/completions`;
      const path = (origin ? originPathOf(ours) : ours).replace(/\/chat\/completions$/, '');
      const names = origin ? Object.fromEntries(family.models.map((m) => [m, originModel(m)])) : {};
      const model_map = { ...names, ...channel.model_map };
      return [family, new OpenAiCompatible({ ...channel, base_url: `${base}${path}`, model_map })] as const;
    });
    this.endpoints = new Map(
      clients.flatMap(([family, client]) => family.models.map((m) => [m, client] as const)),
    );
    this.first = clients[0]![1];
  }

  /** Validation admits only the families' models; the service's own calls (lyrics) may name any. */
  private endpoint(request: ChatRequest): OpenAiCompatible {
    return this.endpoints.get(request.model) ?? this.first;
  }

  complete(request: ChatRequest, signal: StopSignal): Promise<ChatCompletion> {
    return this.endpoint(request).complete(request, signal);
  }

  stream(request: ChatRequest, signal: StopSignal): AsyncIterable<ChatCompletionChunk> {
    return this.endpoint(request).stream(request, signal);
  }
}
