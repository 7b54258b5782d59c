/**
 * Function calling, in two ways that follow `tool_choice`:
 *
 * - `auto` (the default with tools): the functions go to node-llama-cpp, whose chat wrapper
 *   documents them in the model's own format and notices when the model starts a call; the
 *   call's name and arguments are then sampled under a grammar built from the declared
 *   parameters. Whether to call at all is the model's decision.
 * - `required` or a named function: the answer must be a call, and the model's own format has no
 *   way to force one. The answer is instead sampled under a grammar that only admits
 *   `{"name": <a declared function>, "arguments": <its parameters>}`, with a system instruction
 *   that says so. Any model, even an untrained one, then produces a well-formed call.
 *
 * `none` hides the functions from the model, as OpenAI does.
 */
import type { ChatHistoryItem, ChatModelFunctions, GbnfJsonSchema } from 'node-llama-cpp';
import { randomBytes } from 'node:crypto';
import { invalid, unsupported } from './errors.js';
import { grammarSchema } from './json-schema.js';
import type { ChatRequest, ChatTool, ToolCall } from './types.js';

export type ToolMode =
  | { kind: 'none' }
  | { kind: 'auto'; functions: ChatModelFunctions; parallel: boolean }
  | { kind: 'forced'; tools: ChatTool[]; schema: GbnfJsonSchema };

/** OpenAI's call ids look like `call_` and 24 letters or digits. */
export function callId(): string {
  return `call_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
}

/** A function's arguments as a grammar schema; no `parameters` means no arguments. */
function parametersOf(tool: ChatTool, index: number): GbnfJsonSchema {
  const parameters = tool.function.parameters ?? { type: 'object', properties: {} };
  return grammarSchema(parameters, `tools[${index}].function.parameters`);
}

export function toolMode(request: ChatRequest): ToolMode {
  if (request.functions != null || request.function_call != null) {
    throw unsupported('functions', 'the deprecated functions and function_call; send tools and tool_choice');
  }
  const tools = request.tools ?? [];
  const choice = request.tool_choice ?? 'auto';
  if (tools.length === 0 || choice === 'none') return { kind: 'none' };
  if (choice === 'auto') {
    const functions = Object.fromEntries(
      tools.map((tool, i) => [
        tool.function.name,
        {
          ...(tool.function.description ? { description: tool.function.description } : {}),
          params: parametersOf(tool, i),
        },
      ]),
    );
    return { kind: 'auto', functions, parallel: request.parallel_tool_calls !== false };
  }
  const chosen =
    choice === 'required' ? tools : tools.filter((t) => t.function.name === choice.function.name);
  if (chosen.length === 0)
    throw invalid('tool_choice.function.name', 'must name a function declared in tools');
  const calls = chosen.map((tool) => ({
    type: 'object' as const,
    properties: { name: { const: tool.function.name }, arguments: parametersOf(tool, tools.indexOf(tool)) },
  }));
  const schema = (calls.length === 1 ? calls[0] : { oneOf: calls }) as GbnfJsonSchema;
  return { kind: 'forced', tools: chosen, schema };
}

/** The instruction that goes with a forced call: what to call, and in which form. */
function instruction(tools: readonly ChatTool[]): string {
  const lines = tools.map((tool) => {
    const about = tool.function.description ? ` ${tool.function.description}` : '';
    const parameters = JSON.stringify(tool.function.parameters ?? { type: 'object', properties: {} });
    return `- ${tool.function.name}:${about} Arguments (JSON Schema): ${parameters}`;
  });
  return [
    `Answer by calling ${tools.length === 1 ? 'this function' : 'one of these functions'}.`,
    'Reply with only a JSON object {"name": <function name>, "arguments": <arguments object>}.',
    ...lines,
  ].join('\n');
}

/** The history with the forced-call instruction added to its first system message. */
export function withInstruction(history: ChatHistoryItem[], tools: readonly ChatTool[]): ChatHistoryItem[] {
  const text = instruction(tools);
  const [first, ...rest] = history;
  if (first?.type === 'system' && typeof first.text === 'string') {
    return [{ type: 'system', text: `${first.text}\n\n${text}` }, ...rest];
  }
  return [{ type: 'system', text }, ...history];
}

/** The call a forced answer describes; the grammar guarantees its form. */
export function forcedCall(text: string): ToolCall {
  const call = JSON.parse(text) as { name: string; arguments: unknown };
  return {
    id: callId(),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  };
}
