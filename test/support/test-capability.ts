/**
 * A capability for the task tests only (never in the shipped operation table): it does what the
 * request's text tells it, so each test can ask for a slow, progressing, failing or hanging job.
 *
 * Directives, space-separated, in the prompt (or the first text item, or `audio_id`, or QR
 * `content`): `sleep=MS`, `progress=N` (N progress reports spread over the sleep, each with partial
 * data and a step of the way, stage `step`), `fail=CODE` (fail with that error code), `hang` (run
 * until the deadline). It also answers `/serp/web` synchronously, obeying `sleep=MS` and
 * `fail=CODE` in the `query`, for tests of charged requests in flight.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError, type ErrorCode } from '../../src/errors.js';
import { Providers, type Capability, type Job } from '../../src/providers/index.js';
import type { StopSignal } from '../../src/providers/stop-signal.js';

function directiveText(input: Record<string, unknown>): string {
  const content = input.content;
  if (Array.isArray(content)) return String((content[0] as { text?: string }).text ?? '');
  return String(input.prompt ?? input.audio_id ?? content ?? '');
}

function directives(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/\s+/)
      .map((word) => word.split('=') as [string, string?])
      .map(([k, v]) => [k, v ?? '']),
  );
}

function sleep(ms: number, signal: StopSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

async function resultOf(job: Job): Promise<unknown> {
  const url = await job.saveFile(Buffer.from(`result of ${job.taskId}`), 'txt');
  const created_at = new Date().toISOString();
  switch (job.operation.path) {
    case '/tune/vox':
      return {
        id: randomUUID(),
        source_clip_id: job.input.audio_id,
        vocal_audio_url: url,
        vocal_start_s: 0,
        vocal_end_s: 1,
      };
    case '/qrart/tasks':
      return { seed: 7, image_url: url, image_width: 768, image_height: 768 };
    case '/dance/videos':
      return [
        {
          id: randomUUID(),
          model: job.input.model,
          content: { video_url: url },
          created_at: 1,
          updated_at: 2,
        },
      ];
    default:
      return [1, 2].map((n) => ({
        id: randomUUID(),
        model: String(job.input.model ?? 'test'),
        title: `take ${n}`,
        audio_url: url,
        created_at,
      }));
  }
}

export const testCapability: Capability = {
  async run(job) {
    const say = directives(directiveText(job.input));
    const total = Number(say.sleep ?? 0);
    const reports = Number(say.progress ?? 0);
    for (let i = 1; i <= reports; i += 1) {
      await sleep(total / (reports + 1), job.signal);
      job.advance(i / (reports + 1), 'step');
      await job.progress([
        {
          id: job.taskId,
          model: 'test',
          title: `step ${i} of ${reports}`,
          created_at: new Date().toISOString(),
        },
      ]);
    }
    if (total > 0) await sleep(reports > 0 ? total / (reports + 1) : total, job.signal);
    if ('hang' in say) await sleep(10 * 60_000, job.signal);
    if (say.fail) throw new ServiceError(say.fail as ErrorCode, `failed as asked (${say.fail})`);
    return resultOf(job);
  },
  async handle(call) {
    const say = directives(String(call.body.query ?? ''));
    if (say.sleep) await sleep(Number(say.sleep), call.signal);
    if (say.fail) throw new ServiceError(say.fail as ErrorCode, `failed as asked (${say.fail})`);
    return {
      organic: [{ link: 'https://example.com/', title: 'a result', snippet: 'as asked', position: 1 }],
    };
  },
};

/** Every task family, and web search, served by the test capability. */
export function testProviders(): Providers {
  return new Providers({
    serp: testCapability,
    tune: testCapability,
    clip: testCapability,
    dance: testCapability,
    maxi: testCapability,
    qrart: testCapability,
  });
}
