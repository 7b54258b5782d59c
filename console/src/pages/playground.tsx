/**
 * The Playground: any operation, run with a client token the operator pastes. The token lives in
 * this component's state only (never storage, never a cookie) and is gone with the page. Forms
 * come from the schemas of the server's OpenAPI document; generations stream their snapshots
 * (ndjson) and chat streams its answer as it arrives.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorOf } from '../api';
import { ResultView } from '../result-view';
import { bodyOf, SchemaForm, type Schema, type Values } from '../schema-form';
import { ErrorNote, Field, Loading, PageHeader, Section, State, useLoad } from '../ui';
import { Progress } from './tasks';

interface Operation {
  path: string;
  summary: string;
  family: string;
  schema: Schema;
}

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      { tags?: string[]; summary?: string; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
}

/** Values that make a first click work. */
const STARTERS: Record<string, Values> = {
  '/serp/web': { query: 'search channels' },
  '/qrart/tasks': { content: 'https://example.com', prompt: 'a forest at dawn' },
  '/tune/audios': {
    action: 'generate',
    custom: 'true',
    title: 'River Road',
    style: 'folk, acoustic guitar, 160 bpm',
    lyric:
      '[Verse]\nWalking down the river road\nSinging softly all alone\n[Chorus]\nHold the light and let it glow',
  },
  '/chatmodel/chat/completions': {
    model: 'chatmodel-4o',
    messages: '[{"role": "user", "content": "Say hello to the operators"}]',
    stream: 'true',
  },
  '/moon/chat/completions': {
    model: 'moon-v1-8k',
    messages: '[{"role": "user", "content": "Say hello to the operators"}]',
    stream: 'true',
  },
};

/** The operations that stream a task's snapshots as ndjson when asked (QR art answers at once). */
const GENERATIONS = new Set(['/tune/audios', '/clip/videos', '/dance/videos', '/maxi/videos']);

async function operations(): Promise<Operation[]> {
  const response = await fetch('/openapi.json');
  if (!response.ok) throw await errorOf(response);
  const document = (await response.json()) as OpenApi;
  return Object.entries(document.paths).flatMap(([path, methods]) => {
    const post = methods.post;
    const schema = post?.requestBody?.content['application/json']?.schema;
    if (!post || !schema || post.tags?.some((t) => t === 'admin' || t === 'account')) return [];
    return [{ path, summary: post.summary ?? '', family: post.tags?.[0] ?? '', schema }];
  });
}

interface Snapshot {
  state?: string;
  progress?: { fraction: number; stage: string } | null;
}

export function Playground() {
  const ops = useLoad(operations, []);
  const [token, setToken] = useState('');
  const [path, setPath] = useState('/serp/web');
  const [values, setValues] = useState<Values>(STARTERS['/serp/web'] ?? {});
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();
  const [result, setResult] = useState<unknown>();
  const [snapshot, setSnapshot] = useState<Snapshot>();
  const [streamed, setStreamed] = useState<string>();
  const operation = ops.data?.find((o) => o.path === path);

  useEffect(() => {
    setValues(STARTERS[path] ?? {});
    setResult(undefined);
    setError(undefined);
    setStreamed(undefined);
    setSnapshot(undefined);
  }, [path]);

  const run = async (event: Event) => {
    event.preventDefault();
    if (!operation) return;
    const made = bodyOf(operation.schema, values);
    if ('field' in made) {
      setError(new Error(`${made.field}: ${made.rule}`));
      return;
    }
    setRunning(true);
    setError(undefined);
    setResult(undefined);
    setStreamed(undefined);
    setSnapshot(undefined);
    try {
      const response = await fetch(path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.trim()}`,
          'content-type': 'application/json',
          ...(GENERATIONS.has(path) ? { accept: 'application/x-ndjson' } : {}),
        },
        body: JSON.stringify(made.body),
      });
      if (!response.ok) throw await errorOf(response);
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('ndjson'))
        setResult(await readLines(response, (line) => setSnapshot(JSON.parse(line) as Snapshot)));
      else if (type.includes('event-stream')) setResult(await readChat(response, setStreamed));
      else setResult(await response.json());
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <PageHeader title="Playground">
        Run any operation as a client would. The client token stays in this page's memory only.
      </PageHeader>
      <Section title="Request">
        <form onSubmit={run}>
          <div class="form-grid">
            <Field label="Client token" hint="paste a client token (Tokens creates one); it is not stored">
              <input
                type="password"
                autocomplete="off"
                required
                value={token}
                onInput={(e) => setToken(e.currentTarget.value)}
              />
            </Field>
            <Field label="Operation">
              <select value={path} onChange={(e) => setPath(e.currentTarget.value)} disabled={!ops.data}>
                {(ops.data ?? []).map((o) => (
                  <option key={o.path} value={o.path}>
                    {o.path} — {o.summary}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <ErrorNote error={ops.error} />
          {!ops.data && !ops.error && <Loading what="the operations" />}
          {operation && (
            <SchemaForm
              key={path}
              schema={operation.schema}
              values={values}
              prominent={Object.keys(STARTERS[path] ?? {})}
              onChange={setValues}
            />
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={running || !operation}>
              {running ? 'Running…' : 'Run'}
            </button>
          </div>
        </form>
      </Section>
      <Section title="Result">
        <div aria-live="polite">
          {running && snapshot && (
            <p class="snapshot">
              <State value={snapshot.state ?? 'queued'} />{' '}
              <Progress task={{ state: snapshot.state ?? 'queued', progress: snapshot.progress ?? null }} />
            </p>
          )}
          {streamed !== undefined && <p class="chat-answer">{streamed}</p>}
        </div>
        <ErrorNote error={error} />
        {result !== undefined && <ResultView value={result} />}
        {!running && result === undefined && error === undefined && (
          <p class="muted">Paste a client token, choose an operation and run it: the answer shows here.</p>
        )}
      </Section>
    </>
  );
}

/** Reads ndjson lines as they come; answers the last one. */
async function readLines(response: Response, onLine: (line: string) => void): Promise<unknown> {
  let last = '';
  await eachLine(response, (line) => {
    if (!line.trim()) return;
    last = line;
    onLine(line);
  });
  return JSON.parse(last) as unknown;
}

/** Reads a chat completion's server-sent events, showing the text as it arrives. */
async function readChat(response: Response, onText: (text: string) => void): Promise<unknown> {
  let text = '';
  const chunks: unknown[] = [];
  await eachLine(response, (line) => {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '[DONE]') return;
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
    chunks.push(chunk);
    text += chunk.choices?.[0]?.delta?.content ?? '';
    onText(text);
  });
  return { text, chunks: chunks.length };
}

async function eachLine(response: Response, onLine: (line: string) => void): Promise<void> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    lines.forEach(onLine);
  }
  if (buffer) onLine(buffer);
}
