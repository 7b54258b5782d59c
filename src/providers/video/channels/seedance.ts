/**
 * A dance channel to the Seedance models of BytePlus ModelArk, or of Volcengine Ark with its
 * base URL (docs.byteplus.com/en/docs/ModelArk/1520757, "Video Generation API"): a task is
 * created by `POST /api/v3/contents/generations/tasks` with `model` and `content`, and read by
 * `GET …/tasks/{id}`, whose `status` goes queued → running → succeeded, or ends failed, cancelled
 * or expired with `error.message`. The video is `content.video_url` (and `content.last_frame_url`
 * with `return_last_frame`), next to `seed`, `resolution`, `ratio`, `duration`,
 * `framespersecond` and `usage`.
 *
 * Our dance body is Ark's almost field for field. The settings go up as the text commands every
 * Seedance model reads (`--rs --rt --dur --fps --seed --cf --wm`, documented for the text item;
 * `frames`, which the documentation lists without a short form, as `--frames`), not as the body
 * fields only newer models take: the flags already in the prompt are read, our body fields win
 * over them, and the prompt goes up with one set of commands.
 * Our model names are Ark's BytePlus ids behind our prefix (`dance-1-0-pro-250528` is
 * `seedance-1-0-pro-250528`); Volcengine's `doubao-…` ids come from the channel's `model_map`.
 */
import { parseDanceFlags, type DanceFlags } from '../../../contract/dance-flags.js';
import { UpstreamFailure } from '../../router.js';
import { compact, integerOf, listOf, numberOf, objectOf, textOf } from '../../json-readers.js';
import { followTask, outsideContract, type TaskCheck } from './task-follower.js';
import type { UpstreamVideo, VideoBackend, VideoChannel, VideoChannelOptions, VideoJob } from './types.js';
import { baseOf, bearer, callJson, upstreamModel, usageOf, type Json } from './vendor-calls.js';

export const BYTEPLUS_URL = 'https://ark.ap-southeast.bytepluses.com';
export const TASKS = '/api/v3/contents/generations/tasks';

/** The settings a text command carries, by our field name, with the short command Ark reads. */
const COMMANDS: readonly (readonly [keyof DanceFlags | 'frames', string])[] = [
  ['resolution', '--rs'],
  ['ratio', '--rt'],
  ['duration', '--dur'],
  ['frames', '--frames'],
  ['framespersecond', '--fps'],
  ['seed', '--seed'],
  ['camerafixed', '--cf'],
  ['watermark', '--wm'],
];

/** Body members that go up beside `content` as they are. */
const PASSED = ['return_last_frame', 'service_tier', 'execution_expires_after', 'generate_audio'] as const;

/** The settings of the body and of the prompt's flags together, the body's winning. */
function settingsOf(body: Json, flags: DanceFlags): Record<string, unknown> {
  const settings: Record<string, unknown> = { ...flags };
  for (const [field] of COMMANDS) if (body[field] !== undefined) settings[field] = body[field];
  return settings;
}

/** Ark's `content`: the prompt with one set of commands, and the images as they are. */
function contentOf(body: Json): Json[] {
  const items = listOf(body.content);
  const text = items.find((item) => item.type === 'text');
  const parsed = parseDanceFlags(textOf(text?.text) ?? '');
  const settings = settingsOf(body, parsed.flags);
  const commands = COMMANDS.flatMap(([field, command]) =>
    settings[field] === undefined ? [] : [`${command} ${String(settings[field])}`],
  );
  const prompt = [parsed.text, ...commands].filter((part) => part !== '').join(' ');
  const images = items
    .filter((item) => item.type === 'image_url')
    .map((item) => compact({ type: 'image_url', image_url: item.image_url, role: textOf(item.role) }));
  // An image-only request still needs a text item to carry its commands.
  return prompt === '' ? images : [{ type: 'text', text: prompt }, ...images];
}

function checkOf(channel: VideoChannel, task: Json): TaskCheck {
  const status = textOf(task.status);
  switch (status) {
    case 'queued':
    case 'running':
      return { state: status };
    case 'failed':
    case 'cancelled':
    case 'expired':
      return { state: 'failed', message: textOf(objectOf(task.error)?.message) ?? `the task was ${status}` };
    case 'succeeded': {
      const content = objectOf(task.content) ?? {};
      return {
        state: 'succeeded',
        video: compact({
          videoUrl: textOf(content.video_url) ?? '',
          lastFrameUrl: textOf(content.last_frame_url),
          duration: numberOf(task.duration),
          fps: numberOf(task.framespersecond),
          seed: integerOf(task.seed),
          resolution: textOf(task.resolution),
          ratio: textOf(task.ratio),
          usage: usageOf(task.usage),
        }),
      };
    }
    default:
      throw outsideContract(channel, `the unknown status ${String(status)}`);
  }
}

export class Seedance implements VideoBackend {
  private readonly url: string;

  constructor(
    private readonly channel: VideoChannel,
    private readonly options: VideoChannelOptions = {},
  ) {
    this.url = `${baseOf(channel, BYTEPLUS_URL)}${TASKS}`;
  }

  async generate(job: VideoJob): Promise<UpstreamVideo> {
    const { channel, url } = this;
    const body = job.body;
    const payload = compact({
      model: upstreamModel(channel, body.model, (m) => m.replace(/^dance-/, 'seedance-')),
      content: contentOf(body),
      ...Object.fromEntries(PASSED.map((field) => [field, body[field]])),
    });
    const auth = bearer(channel.api_key);
    return followTask(channel, job, this.options, {
      submit: async (signal) => {
        const id = textOf((await callJson(channel, url, auth, signal, payload)).id);
        if (id !== undefined) return id;
        throw new UpstreamFailure(`${channel.name} answered the submission without an id`);
      },
      check: async (id, signal) =>
        checkOf(channel, await callJson(channel, `${url}/${encodeURIComponent(id)}`, auth, signal)),
    });
  }
}
