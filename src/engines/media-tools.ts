/**
 * ffmpeg and ffprobe (from Debian) at the edges of the audio and video engines, and the private
 * temporary folder they need: several containers (MP4 with its index moved to the front, M4A
 * with the index at the end, WAV headers) take a seekable file rather than a pipe.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A tool that failed: a file it could not read, an encode it could not do; the message says why. */
export class ToolFailed extends Error {}

export function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').trim();
}

/** Runs a tool to completion, `input` on its standard input, and returns its standard output. */
export function run(
  tool: 'ffmpeg' | 'ffprobe',
  args: string[],
  signal?: AbortSignal,
  input?: Buffer,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const head = tool === 'ffmpeg' ? ['-hide_banner', '-nostdin', '-loglevel', 'error'] : ['-v', 'error'];
    const child = spawn(tool, [...head, ...args], {
      stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      signal,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new ToolFailed(lastLine(Buffer.concat(err).toString('utf8')) || `${tool} exited with ${code}`),
        );
    });
    // A broken pipe means the tool stopped reading: its exit status says why.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

export async function withTemp<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-media-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
