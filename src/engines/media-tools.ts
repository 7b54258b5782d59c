/**
 * ffmpeg and ffprobe (from Debian) at the edges of the audio and video engines, and the private
 * temporary folder they need: several containers (MP4 with its index moved to the front, M4A
 * with the index at the end, WAV headers) take a seekable file rather than a pipe.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** A tool that failed: a file it could not read, an encode it could not do; the message says why. */
export class ToolFailed extends Error {}

export function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').trim();
}

/** Runs a tool to completion, `input` on its standard input, and returns its standard output. */
export async function run(
  tool: 'ffmpeg' | 'ffprobe',
  args: string[],
  signal?: AbortSignal,
  input?: Buffer,
): Promise<Buffer> {
  const [stdout] = await runPiped(tool, args, { signal, input });
  return stdout!;
}

export interface Pipes {
  signal?: AbortSignal;
  /** Written to standard input. */
  input?: Buffer;
  /** Written to descriptors 3, 4, … (`pipe:3` to ffmpeg). */
  inputs?: readonly Buffer[];
  /** How many outputs to read from the descriptors after the inputs'. */
  outputs?: number;
}

/**
 * Runs a tool with pipes beyond its standard streams, so that one process can take or give
 * several files: every spawn forks this process, which costs more the more memory it holds
 * (tens of milliseconds at a gigabyte, the event loop stopped meanwhile). Resolves to the
 * standard output, then each extra output in order.
 */
export function runPiped(tool: 'ffmpeg' | 'ffprobe', args: string[], pipes: Pipes): Promise<Buffer[]> {
  const inputs = pipes.inputs ?? [];
  const outputs = pipes.outputs ?? 0;
  return new Promise((resolve, reject) => {
    const head = tool === 'ffmpeg' ? ['-hide_banner', '-nostdin', '-loglevel', 'error'] : ['-v', 'error'];
    const child = spawn(tool, [...head, ...args], {
      stdio: [
        pipes.input ? 'pipe' : 'ignore',
        'pipe',
        'pipe',
        ...Array<'pipe'>(inputs.length + outputs).fill('pipe'),
      ],
      signal: pipes.signal,
    });
    const read = [1, ...Array.from({ length: outputs }, (_, n) => 3 + inputs.length + n)].map((fd) => {
      const chunks: Buffer[] = [];
      (child.stdio[fd] as Readable).on('data', (chunk: Buffer) => chunks.push(chunk));
      return chunks;
    });
    const err: Buffer[] = [];
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(read.map((chunks) => Buffer.concat(chunks)));
      else
        reject(
          new ToolFailed(
            lastLine(Buffer.concat(err).toString('utf8')).replace(QUOTED_TEMP_FILE, '') ||
              `${tool} exited with ${code}`,
          ),
        );
    });
    const writes: [number, Buffer | undefined][] = [
      [0, pipes.input],
      ...inputs.map((b, n) => [3 + n, b] as [number, Buffer]),
    ];
    for (const [fd, data] of writes) {
      const stream = child.stdio[fd] as Writable | null;
      // A broken pipe means the tool stopped reading: its exit status says why.
      stream?.on('error', () => undefined);
      stream?.end(data);
    }
  });
}

const TEMP_PREFIX = join(tmpdir(), 'switchyard-media-');

/**
 * A file of a temporary folder as a tool quotes it (`/tmp/switchyard-media-Ab12/input-0: `): left
 * out of what a failure says, since its message may reach a client, who learns nothing from it.
 */
const QUOTED_TEMP_FILE = new RegExp(`${escapedForRegExp(TEMP_PREFIX)}[^/\\s]*/[^\\s:]*:?\\s*`, 'g');

function escapedForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function withTemp<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(TEMP_PREFIX);
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
