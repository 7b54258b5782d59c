/**
 * The MCP tools, made from the operation table: one per operation a client calls to get work done,
 * plus `get_task` for the tasks of every family. A tool's input schema is its operation's request
 * schema, the one that validates HTTP requests and describes them in OpenAPI, less the members
 * that choose how an HTTP client waits (the tool always waits) and, for QR art, the retrieval
 * members that `get_task` covers. Only the descriptions are written here: they are for a model
 * choosing among tools, where the OpenAPI summaries are for a programmer.
 */
import { OPERATIONS } from '../contract/table.js';
import { Closed, TaskId, type TSchema } from '../contract/schema.js';
import { retrievalMembers } from '../contract/tasks.js';
import type { Operation } from '../contract/types.js';

export interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The operation a call goes to; `get_task` has none of its own (the task's family decides). */
  operation?: Operation;
  /** Members the tool sets itself on the operation's body. */
  fixed: Record<string, unknown>;
}

/** The task retrieval tool's name; it takes `task_id` alone. */
export const GET_TASK = 'get_task';

/** Members no tool offers: the tool waits for a task itself, and answers chat in one piece. */
const HIDDEN = ['async', 'stream', 'stream_options'];

const LONG =
  ' It runs as a task: progress is reported while it works; if it outlasts the wait, the answer carries task_id for get_task.';

interface Written {
  name: string;
  description: string;
  /** The `action` the tool always sends, where the operation's path serves several kinds. */
  action?: string;
}

const WRITTEN: Readonly<Record<string, Written>> = {
  '/serp/web': {
    name: 'web_search',
    description:
      'Search the web (or news, images, videos, places) for a query and get ranked results with titles, links and snippets. Use it for facts, recent events or sources to cite.',
  },
  '/clip/videos': {
    name: 'clip_video',
    description: `Make a short video (5 or 10 s) from a text prompt (action text2video), animate a still image (image2video), or extend an earlier clip by its video_id (extend). Answers video URLs.${LONG}`,
  },
  '/dance/videos': {
    name: 'dance_video',
    description: `Make a video from a content list: one text prompt (with optional --flags such as --duration) and optional reference or first/last-frame images. Good for short clips at a chosen resolution and ratio.${LONG}`,
  },
  '/maxi/videos': {
    name: 'maxi_video',
    description: `Make a 6 s video from a prompt, optionally starting from an image (model maxi-i2v); the director model takes camera moves in brackets such as [Zoom in].${LONG}`,
  },
  '/tune/audios': {
    name: 'music',
    description: `Compose a song from a description or from lyrics and a style (action generate), or rework an earlier audio by its audio_id: extend, cover, add vocals or accompaniment, replace a section and more. Answers songs as MP3 URLs with covers and music videos.${LONG}`,
  },
  '/tune/vox': {
    name: 'vocals',
    description: `Separate the vocals and the accompaniment of an earlier song, given its audio_id (from the music tool).${LONG}`,
  },
  '/tune/personas': {
    name: 'music_persona',
    description:
      'Save the singing voice of an earlier song (its audio_id) as a persona, to sing later songs with the same voice (persona_id of the music tool).',
  },
  '/chatmodel/chat/completions': {
    name: 'chat_chatmodel',
    description:
      'Ask a chat model of the chatmodel family (OpenAI-style messages; tool calling supported) and get its reply as text.',
  },
  '/moon/chat/completions': {
    name: 'chat_moon',
    description: 'Ask a chat model of the moon family (OpenAI-style messages) and get its reply as text.',
  },
  '/qrart/tasks': {
    name: 'qr_art',
    description: `Make an artistic QR code that still scans: the content (a URL, text, e-mail, phone…) drawn in a chosen style from a prompt, pattern or image. Answers the PNG image.${LONG}`,
    action: 'generate',
  },
  '/identity/idcard/check-1e': {
    name: 'idcard_check',
    description:
      'Check a photo of a Chinese resident ID card: whether it is genuine, a copy, reshot or tampered, its quality, and the portrait compared with the registry. Answers result codes and the card fields.',
  },
  '/identity/idcard/ocr': {
    name: 'idcard_ocr',
    description:
      'Read a Chinese resident ID card photo and verify it against a given name and ID number. Answers the fields read and whether they match.',
  },
};

/** The operation's request schema as plain JSON Schema, less `omit`. */
function inputOf(schema: TSchema, omit: readonly string[]): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(schema)) as { properties: object; required?: string[] };
  const properties = plain.properties as Record<string, unknown>;
  for (const member of omit) delete properties[member];
  const required = (plain.required ?? []).filter((member) => !omit.includes(member));
  if (required.length > 0) plain.required = required;
  else delete plain.required;
  return plain as unknown as Record<string, unknown>;
}

function operationTool(operation: Operation): Tool {
  const written = WRITTEN[operation.path];
  // A new operation in the table must be described before the server starts.
  if (!written) throw new Error(`${operation.path} has no MCP tool description (src/mcp/tools.ts)`);
  const fixed = written.action ? { action: written.action } : {};
  const retrieval = written.action ? ['action', ...Object.keys(retrievalMembers)] : [];
  const inputSchema = inputOf(operation.request, [...HIDDEN, ...retrieval]);
  return { name: written.name, description: written.description, inputSchema, operation, fixed };
}

/** What `get_task` takes: the id a task tool answered. */
export const GetTaskInput = Closed({ task_id: TaskId('The task_id a tool answered') });

const getTask: Tool = {
  name: GET_TASK,
  description:
    'Look up a video, music, vocals or QR art task by its task_id: its state, progress and, once finished, its result. Use it when a tool answered that its task goes on.',
  inputSchema: inputOf(GetTaskInput, []),
  fixed: {},
};

export const TOOLS: readonly Tool[] = [
  ...OPERATIONS.filter((operation) => operation.kind !== 'retrieval').map(operationTool),
  getTask,
];

export function toolNamed(name: string): Tool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
