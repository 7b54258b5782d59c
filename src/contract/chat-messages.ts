/**
 * The `messages` of a chat request, in OpenAI's shape. One closed object holds the members of
 * every role, and the rules say which role may carry which: a violation then names the member
 * (`messages[2].tool_call_id`) instead of "matches none of five message shapes".
 */
import { Type, Closed, StringEnum, InputUrl, Nullable, type Static } from './schema.js';
import { TOOLS_ONLY_ON, Unavailable } from './chat-tools.js';
import { objectsIn } from './rules.js';
import type { Rule, Violation } from './types.js';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

const ContentPart = Closed({
  type: StringEnum(['text', 'image_url'] as const),
  text: Type.Optional(Type.String({ description: 'With type text' })),
  image_url: Type.Optional(
    Closed(
      {
        url: InputUrl('Image the model looks at'),
        detail: Type.Optional(StringEnum(['auto', 'low', 'high'] as const, { description: 'Default auto' })),
      },
      { description: 'With type image_url; user messages only' },
    ),
  ),
  // Sent by SDK v6 clients that place explicit prompt-cache breakpoints.
  prompt_cache_breakpoint: Type.Optional(Closed({ mode: StringEnum(['explicit'] as const) })),
});

/** A type list rather than `anyOf`, so that a bad part is reported at its own path. */
const Content = Type.Unsafe<string | Static<typeof ContentPart>[] | null>({
  type: ['string', 'array', 'null'],
  items: ContentPart,
  minItems: 1,
  description: 'A string or content parts; null only in an assistant message that carries tool_calls',
});

export const ToolCall = Closed({
  id: Type.String({ minLength: 1 }),
  type: StringEnum(['function'] as const),
  function: Closed({
    name: Type.String({ minLength: 1 }),
    arguments: Type.String({ description: 'The arguments as JSON text, as the model wrote them' }),
  }),
});

/** The message schema of a family; `tools` says whether it offers tool calling. */
export function Message(tools: boolean) {
  const toolsOnly = Type.Optional(Unavailable(TOOLS_ONLY_ON));
  return Closed({
    role: StringEnum(tools ? ROLES : ROLES.filter((r) => r !== 'tool')),
    content: Type.Optional(Content),
    name: Type.Optional(Type.String({ description: 'Tells apart participants of one role' })),
    tool_calls: tools
      ? Type.Optional(Type.Array(ToolCall, { description: 'Assistant: calls it made' }))
      : toolsOnly,
    tool_call_id: tools
      ? Type.Optional(Type.String({ description: 'Tool: the call it answers' }))
      : toolsOnly,
    function_call: tools
      ? Type.Optional(Nullable(Closed({ name: Type.String(), arguments: Type.String() })))
      : toolsOnly,
    // A completion's message is sent back as the next turn's history (the SDKs' documented
    // round trip), so the members an assistant message can come back with are accepted.
    refusal: Type.Optional(Nullable(Type.String({ description: 'Assistant: the refusal it gave' }))),
    annotations: Type.Optional(Type.Array(Type.Object({}), { description: 'Assistant: ignored on input' })),
    audio: Type.Optional(
      Nullable(Closed({ id: Type.String() }, { description: 'Assistant: earlier audio' })),
    ),
  });
}

type Visit = (message: Record<string, unknown>, at: string) => Violation[];

function eachMessage(visit: Visit): Rule {
  return (body) => objectsIn(body.messages).flatMap(([i, m]) => visit(m, `messages[${i}]`));
}

const given = (m: Record<string, unknown>, member: string) => m[member] !== undefined && m[member] !== null;

const carriesCalls = (m: Record<string, unknown>) =>
  (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) || given(m, 'function_call');

const contentRequired = eachMessage((m, at) =>
  given(m, 'content') || (m.role === 'assistant' && carriesCalls(m))
    ? []
    : [
        {
          field: `${at}.content`,
          rule: 'is required; only an assistant message with tool_calls may omit it',
        },
      ],
);

const ASSISTANT_ONLY = ['tool_calls', 'function_call', 'refusal', 'annotations', 'audio'] as const;

const membersOfRole = eachMessage((m, at) => [
  ...ASSISTANT_ONLY.filter((k) => given(m, k) && m.role !== 'assistant').map((k) => ({
    field: `${at}.${k}`,
    rule: 'is only allowed in assistant messages',
  })),
  ...(given(m, 'tool_call_id') && m.role !== 'tool'
    ? [{ field: `${at}.tool_call_id`, rule: 'is only allowed in tool messages' }]
    : []),
]);

/** A tool message answers a call the assistant made earlier in the conversation. */
const toolResultsAnswerCalls: Rule = (body) => {
  const calls = new Set<string>();
  const out: Violation[] = [];
  for (const [i, m] of objectsIn(body.messages)) {
    const at = `messages[${i}].tool_call_id`;
    if (m.role === 'assistant') {
      for (const [, c] of objectsIn(m.tool_calls)) if (typeof c.id === 'string') calls.add(c.id);
    }
    if (m.role !== 'tool') continue;
    if (!given(m, 'tool_call_id')) {
      out.push({ field: at, rule: 'is required in tool messages: the id of the tool call answered' });
    } else if (typeof m.tool_call_id === 'string' && !calls.has(m.tool_call_id)) {
      out.push({ field: at, rule: 'must be the id of a tool call made by an earlier assistant message' });
    }
  }
  return out;
};

/** A part carries the member its type names, and only that one; images come from users only. */
const partsMatchType = eachMessage((m, at) =>
  objectsIn(m.content).flatMap(([j, part]): Violation[] => {
    const here = `${at}.content[${j}]`;
    if (part.type === 'image_url' && m.role !== 'user') {
      return [{ field: `${here}.type`, rule: `must be text: only user messages carry images` }];
    }
    const member = part.type === 'image_url' ? 'image_url' : part.type === 'text' ? 'text' : undefined;
    if (member === undefined) return [];
    const other = member === 'text' ? 'image_url' : 'text';
    if (part[member] === undefined) {
      return [{ field: `${here}.${member}`, rule: `is required when type is ${member}` }];
    }
    return part[other] === undefined
      ? []
      : [{ field: `${here}.${other}`, rule: `is not allowed when type is ${member}` }];
  }),
);

export const messageRules: readonly Rule[] = [
  contentRequired,
  membersOfRole,
  toolResultsAnswerCalls,
  partsMatchType,
];
