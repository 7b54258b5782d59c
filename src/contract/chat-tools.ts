/**
 * Tool calling and output format on the chat endpoints: `tools`, `tool_choice`,
 * `parallel_tool_calls`, the deprecated `functions` / `function_call`, and `response_format`.
 * A family without tool calling still declares the tool members, as `Unavailable`, so that a
 * client who sends one is told where tool calling is offered rather than "not a known field".
 */
import { Type, Closed, StringEnum, PatternString, Nullable } from './schema.js';
import { isRecord, objectsIn } from './rules.js';
import type { Rule, Violation } from './types.js';

/** The spec offers tools on /chatmodel only. */
export const TOOLS_ONLY_ON = 'is only available on /chatmodel (tool calling)';

const MAX_TOOLS = 128;

/**
 * A member the family does not offer: absent or null passes (generic OpenAI clients send nulls),
 * any other value is reported with `rule`. The single-branch `anyOf` is what lets the validator
 * report the sentence instead of "must be null".
 */
export function Unavailable(rule: string) {
  return Type.Unsafe<null>({
    anyOf: [{ type: 'null' }],
    'x-rule': rule,
    description: `Not offered: ${rule}`,
  });
}

/** A JSON Schema (or other free-form object) handed on to the model as is. */
function JsonObject(description: string) {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', description });
}

const NAME_RULE = 'must be 1 to 64 letters, digits, underscores or dashes';

function FunctionName(description: string) {
  return PatternString('^[a-zA-Z0-9_-]{1,64}$', NAME_RULE, { description });
}

const functionMembers = {
  name: FunctionName('Name the model calls the function by'),
  description: Type.Optional(Type.String({ description: 'What the function does, for the model to decide' })),
  parameters: Type.Optional(JsonObject('JSON Schema of the arguments; no arguments when absent')),
};

const Tool = Closed({
  type: StringEnum(['function'] as const, { description: 'Only function tools are offered' }),
  function: Closed({
    ...functionMembers,
    strict: Type.Optional(
      Nullable(Type.Boolean({ description: 'Hold the arguments to `parameters` exactly' })),
    ),
  }),
});

const ToolChoice = Type.Union(
  [
    StringEnum(['none', 'auto', 'required'] as const),
    Closed({ type: StringEnum(['function'] as const), function: Closed({ name: Type.String() }) }),
  ],
  {
    description: 'none, auto (default with tools), required, or a named function',
    'x-rule': 'must be none, auto, required or {"type": "function", "function": {"name": …}}',
  },
);

const FunctionCall = Type.Union([StringEnum(['none', 'auto'] as const), Closed({ name: Type.String() })], {
  description: 'Deprecated form of tool_choice',
  'x-rule': 'must be none, auto or {"name": …}',
});

/** The tool members of a request, offered or not. */
export function toolMembers(offered: boolean) {
  const no = Type.Optional(Unavailable(TOOLS_ONLY_ON));
  if (!offered) {
    return { tools: no, tool_choice: no, parallel_tool_calls: no, functions: no, function_call: no };
  }
  return {
    // `null` and `[]` both mean "no tools": generic clients send either, and neither is ambiguous.
    tools: Type.Optional(
      Nullable(Type.Array(Tool, { maxItems: MAX_TOOLS, description: 'Functions the model may call' })),
    ),
    tool_choice: Type.Optional(ToolChoice),
    parallel_tool_calls: Type.Optional(Type.Boolean({ description: 'Allow several tool calls in one turn' })),
    functions: Type.Optional(
      Type.Array(Closed(functionMembers), { maxItems: MAX_TOOLS, description: 'Deprecated form of tools' }),
    ),
    function_call: Type.Optional(FunctionCall),
  };
}

/** Names declared in `list`, with the path of each name. */
function declared(
  list: unknown,
  nameOf: (item: Record<string, unknown>) => unknown,
  path: (i: number) => string,
) {
  return objectsIn(list).flatMap(([i, item]) => {
    const name = nameOf(item);
    return typeof name === 'string' ? [{ name, field: path(i) }] : [];
  });
}

const toolNames = (body: Record<string, unknown>) =>
  declared(
    body.tools,
    (t) => (isRecord(t.function) ? t.function.name : undefined),
    (i) => `tools[${i}].function.name`,
  );
const functionNames = (body: Record<string, unknown>) =>
  declared(
    body.functions,
    (f) => f.name,
    (i) => `functions[${i}].name`,
  );

/** A named choice must be unambiguous, so names are unique within their list. */
function uniqueNames(names: (body: Record<string, unknown>) => { name: string; field: string }[]): Rule {
  return (body) => {
    const first = new Map<string, string>();
    const out: Violation[] = [];
    for (const { name, field } of names(body)) {
      const earlier = first.get(name);
      if (earlier) out.push({ field, rule: `must be unique: ${earlier} has the same name` });
      else first.set(name, field);
    }
    return out;
  };
}

/** A choice that names a function (`choice` at `namePath`) must name one that `list` declares. */
function namesDeclared(
  choice: string,
  namePath: string,
  list: string,
  names: (body: Record<string, unknown>) => { name: string }[],
): Rule {
  return (body) => {
    const value = body[choice];
    if (!isRecord(value)) return [];
    const known = names(body).map((n) => n.name);
    if (known.length === 0) {
      return [{ field: choice, rule: `names a function, so it needs ${list} declaring that function` }];
    }
    const name = namePath
      .split('.')
      .reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value);
    return typeof name === 'string' && !known.includes(name)
      ? [
          {
            field: `${choice}.${namePath}`,
            rule: `must name a function declared in ${list} (${known.join(', ')})`,
          },
        ]
      : [];
  };
}

const hasTools = (body: Record<string, unknown>) => Array.isArray(body.tools) && body.tools.length > 0;

const requiredNeedsTools: Rule = (body) =>
  body.tool_choice === 'required' && !hasTools(body)
    ? [{ field: 'tool_choice', rule: 'can be required only when tools declares at least one function' }]
    : [];

const parallelNeedsTools: Rule = (body) =>
  body.parallel_tool_calls !== undefined && !hasTools(body)
    ? [{ field: 'parallel_tool_calls', rule: 'is only allowed when tools declares at least one function' }]
    : [];

/** Rules between the tool members; a family without tools has none (its schema refuses them). */
export function toolRules(offered: boolean): readonly Rule[] {
  if (!offered) return [];
  return [
    uniqueNames(toolNames),
    uniqueNames(functionNames),
    requiredNeedsTools,
    parallelNeedsTools,
    namesDeclared('tool_choice', 'function.name', 'tools', toolNames),
    namesDeclared('function_call', 'name', 'functions', functionNames),
  ];
}

export const ResponseFormat = Closed(
  {
    type: StringEnum(['text', 'json_object', 'json_schema'] as const),
    json_schema: Type.Optional(
      Closed({
        name: FunctionName('Name of the output format'),
        description: Type.Optional(Type.String({ description: 'What the output is for' })),
        schema: Type.Optional(JsonObject('JSON Schema the output must follow')),
        strict: Type.Optional(Nullable(Type.Boolean({ description: 'Follow the schema exactly' }))),
      }),
    ),
  },
  { description: 'Output format; text when absent' },
);

export const responseFormatRules: readonly Rule[] = [
  (body) => {
    const format = body.response_format;
    if (!isRecord(format)) return [];
    const field = 'response_format.json_schema';
    const given = format.json_schema !== undefined;
    if (format.type === 'json_schema' && !given)
      return [{ field, rule: 'is required when type is json_schema' }];
    if (format.type !== 'json_schema' && given)
      return [{ field, rule: 'is only allowed when type is json_schema' }];
    return [];
  },
];
