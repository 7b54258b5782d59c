// What the chat benchmarks send and how they time it: the two request bodies (plain, streamed),
// the check that an answer is the upstream's (bench/chat-upstream.mjs) passed on whole, and the
// latency of requests sent one at a time, each paired with one straight to the upstream so that
// the added latency compares like with like (autocannon counts whole milliseconds).
import { Agent, request } from 'undici';

const EXPECTED = 'Hello from the bench upstream.';
export const MODEL = 'chatmodel-4o';
const messages = [
  { role: 'system', content: 'You are a terse assistant.' },
  { role: 'user', content: 'Say hello to the benchmark.' },
];
export const bodies = {
  plain: JSON.stringify({ model: MODEL, messages }),
  stream: JSON.stringify({ model: MODEL, messages, stream: true }),
};

/** What is wrong with an answer, or null when it is the upstream's completion. */
function problemOf(mode, status, text) {
  if (status !== 200) return `HTTP ${status}: ${text.slice(0, 200)}`;
  if (mode === 'plain') {
    try {
      const content = JSON.parse(text).choices?.[0]?.message?.content;
      return content === EXPECTED ? null : `unexpected completion: ${text.slice(0, 200)}`;
    } catch {
      return `not JSON: ${text.slice(0, 200)}`;
    }
  }
  const events = text
    .split(/\r?\n\r?\n/)
    .map((e) => e.replace(/^data: ?/, ''))
    .filter(Boolean);
  if (events.at(-1) !== '[DONE]') return `stream not closed by [DONE]: ${text.slice(-200)}`;
  let content = '';
  for (const event of events.slice(0, -1)) {
    const chunk = JSON.parse(event);
    if (chunk.error) return `error event: ${event}`;
    content += chunk.choices?.[0]?.delta?.content ?? '';
  }
  return content === EXPECTED ? null : `unexpected streamed content: ${JSON.stringify(content)}`;
}

/** One request to `target` ({url, headers}), timed in ms; `problem` is null when the answer was right. */
export async function timed(target, mode, dispatcher) {
  const start = process.hrtime.bigint();
  try {
    const answer = await request(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: bodies[mode],
      dispatcher,
    });
    const text = await answer.body.text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return { ms, problem: problemOf(mode, answer.statusCode, text) };
  } catch (error) {
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, problem: `${error.code ?? error.message}` };
  }
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
export const round3 = (x) => Number(x.toFixed(3));

export function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round3(percentile(sorted, 0.5)),
    p99: round3(percentile(sorted, 0.99)),
    mean: round3(sorted.reduce((s, x) => s + x, 0) / sorted.length),
  };
}

/**
 * Up to `samples` requests to `target` one at a time, for at most `seconds`, after 50 to warm up,
 * each followed by one to `direct` (when given) on a connection of its own. Answers the times of
 * the right answers of each, how many of the target's failed and the first problem met.
 */
export async function pairedLatency({ target, direct, mode, samples, seconds }) {
  const own = new Agent({ connections: 1 });
  const straight = new Agent({ connections: 1 });
  for (let i = 0; i < 50; i += 1) {
    await timed(target, mode, own);
    if (direct) await timed(direct, mode, straight);
  }
  const times = [];
  const baseline = [];
  let failures = 0;
  let firstProblem = null;
  const until = Date.now() + seconds * 1000;
  for (let i = 0; i < samples && Date.now() < until; i += 1) {
    const one = await timed(target, mode, own);
    if (one.problem) {
      failures += 1;
      firstProblem ??= one.problem;
    } else times.push(one.ms);
    if (direct) {
      const base = await timed(direct, mode, straight);
      if (!base.problem) baseline.push(base.ms);
    }
  }
  await own.close();
  await straight.close();
  return { times, baseline, failures, firstProblem };
}
