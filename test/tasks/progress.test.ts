/**
 * How far a long task is, over HTTP on the local engines: every ndjson line of a song and of a
 * video carries `progress`, which moves through several steps between 0 and 1 with the stage of
 * the work, never going back; a retrieval of the task, running or finished, shows it too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { ONE_LINE_LYRIC, QUICK_STYLE } from '../support/quick-song.js';

// A song and a six-second video are made whole: seconds of work, more on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

interface Progress {
  fraction: number;
  stage: string;
}

type Line = Record<string, unknown> & { task_id: string; progress: Progress };

let server: TestServer;
let token: string;

beforeAll(async () => {
  // One song and one video at a time: one engine thread each, loaded once.
  server = await startServer({ 'music.workers': 1, 'video.workers': 1 });
  token = await server.token();
});
afterAll(() => server.close());

async function retrieve(family: string, id: string): Promise<Record<string, unknown>> {
  const answer = await server.post(`/${family}/tasks`, { action: 'retrieve', id }, token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** Streams a generation as ndjson, handing each line to `onLine` as it arrives. */
async function stream(path: string, body: unknown, onLine: (line: Line) => Promise<void>): Promise<Line[]> {
  const response = await server.send(path, body, token, { accept: 'application/x-ndjson' });
  expect(response.headers.get('content-type')).toContain('application/x-ndjson');
  const lines: Line[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body!) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = JSON.parse(buffered.slice(0, end)) as Line;
      buffered = buffered.slice(end + 1);
      lines.push(line);
      await onLine(line);
    }
  }
  return lines;
}

/**
 * Every line's progress: queued at 0 first, done at 1 last, never going back, with at least three
 * distinct steps strictly between; answers the stages seen on the way.
 */
function checkProgress(lines: Line[]): string[] {
  const steps = lines.map((line) => line.progress);
  for (const step of steps) {
    expect(step).toEqual({ fraction: expect.any(Number), stage: expect.stringMatching(/^[a-z]+$/) });
  }
  expect(steps[0]).toEqual({ fraction: 0, stage: 'queued' });
  expect(steps.at(-1)).toEqual({ fraction: 1, stage: 'done' });
  const fractions = steps.map((step) => step.fraction);
  expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  const between = new Set(fractions.filter((fraction) => fraction > 0 && fraction < 1));
  expect(between.size, JSON.stringify(steps)).toBeGreaterThanOrEqual(3);
  return [...new Set(steps.map((step) => step.stage))];
}

describe('progress of long tasks', () => {
  it('a song goes through composing, mixing, encoding and its music video', async () => {
    const body = { action: 'generate', custom: true, style: QUICK_STYLE, lyric: ONE_LINE_LYRIC };
    const lines = await stream('/tune/audios', body, async () => {});
    // Stages that last longer than the reports' interval are always seen; shorter ones may not be.
    expect(checkProgress(lines)).toEqual(expect.arrayContaining(['compose', 'mix', 'encode', 'render']));
    const finished = await retrieve('tune', lines[0]!.task_id);
    expect(finished).toMatchObject({ state: 'succeeded', progress: { fraction: 1, stage: 'done' } });
  });

  it('a video counts its frames rendered, and a retrieval sees how far it is while it runs', async () => {
    let running: Record<string, unknown> | undefined;
    const body = { model: 'maxi-t2v', action: 'generate', prompt: 'waves on a quiet shore' };
    const started = Date.now();
    const lines = await stream('/maxi/videos', body, async (line) => {
      if (running || line.progress.stage !== 'render') return;
      // A line is published once its progress is kept: any node's retrieval now sees as far.
      running = await retrieve('maxi', line.task_id);
      expect(running).toMatchObject({ state: 'running', progress: { stage: 'render' } });
      expect((running.progress as Progress).fraction).toBeGreaterThanOrEqual(line.progress.fraction);
    });
    expect(running).toBeDefined();
    expect(checkProgress(lines)).toContain('render');
    // Each of its 144 frames is reported, yet the stream is not flooded: a line per 5 % or per
    // 250 ms at most, besides the changes of state.
    const elapsed = Date.now() - started;
    expect(lines.length).toBeLessThanOrEqual(5 + 20 + Math.ceil(elapsed / 250));
    const finished = await retrieve('maxi', lines[0]!.task_id);
    expect(finished.progress).toEqual({ fraction: 1, stage: 'done' });
  });
});
