/**
 * OpenAI chat messages to node-llama-cpp's chat history, which the model's chat wrapper then
 * renders with the model's own template.
 *
 * The two disagree on where a tool call lives. OpenAI sends an assistant message with
 * `tool_calls`, then one `tool` message per result, then the assistant's next message. In
 * node-llama-cpp a function call and its result are items of one model response, and the model's
 * text after the results continues that same response. So results are written into the calls
 * they answer, and an assistant message that follows tool results joins the response it
 * continues.
 */
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from 'node-llama-cpp';
import { invalid, unsupported } from './errors.js';
import type { ChatMessage } from './types.js';

function textOf(message: ChatMessage, at: string): string {
  const content = message.content;
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, j) => {
      if (part.type !== 'text')
        throw unsupported(`${at}.content[${j}]`, `${part.type} parts need a multimodal model`);
      return part.text ?? '';
    })
    .join('\n');
}

/** Arguments and results are JSON text by convention; anything else is kept as the text it is. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const hasCalls = (item: ChatHistoryItem | undefined): item is ChatModelResponse =>
  item?.type === 'model' &&
  item.response.some((part) => typeof part === 'object' && part.type === 'functionCall');

/**
 * The history to generate from. It always ends with the model response to write: an empty one
 * for a new turn, or the response whose tool calls have just been answered.
 */
export function toHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const awaiting = new Map<string, ChatModelFunctionCall>();
  for (const [i, message] of messages.entries()) {
    const at = `messages[${i}]`;
    const text = textOf(message, at);
    switch (message.role) {
      case 'system':
      case 'developer':
        history.push({ type: 'system', text });
        break;
      case 'user':
        history.push({ type: 'user', text });
        break;
      case 'assistant': {
        const last = history.at(-1);
        const response: ChatModelResponse = hasCalls(last) ? last : { type: 'model', response: [] };
        if (response !== last) history.push(response);
        if (text) response.response.push(text);
        for (const [j, call] of (message.tool_calls ?? []).entries()) {
          const item: ChatModelFunctionCall = {
            type: 'functionCall',
            name: call.function.name,
            params: parsed(call.function.arguments),
            // Overwritten by the tool message that answers it; null if none does.
            result: null,
            // Calls made in one message form one chunk (parallel calls).
            startsNewChunk: j === 0,
          };
          response.response.push(item);
          awaiting.set(call.id, item);
        }
        break;
      }
      case 'tool': {
        const call = message.tool_call_id === undefined ? undefined : awaiting.get(message.tool_call_id);
        if (!call)
          throw invalid(`${at}.tool_call_id`, 'must answer a tool call of an earlier assistant message');
        call.result = parsed(text);
        awaiting.delete(message.tool_call_id as string);
        break;
      }
    }
  }
  if (!hasCalls(history.at(-1))) history.push({ type: 'model', response: [] });
  return history;
}
