/**
 * ffmpeg and ffprobe (from Debian) at the edges of the video engine, and the private temporary
 * folder the MP4 muxer needs: moving the index to the front (faststart) takes a seekable file.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A file ffmpeg could not read as video, or an encode that failed; the message says why. */
export class VideoToolError extends Error {}

export function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').trim();
}

/** Runs a tool to completion and returns its standard output. */
export function run(tool: 'ffmpeg' | 'ffprobe', args: string[], signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const head = tool === 'ffmpeg' ? ['-hide_banner', '-nostdin', '-loglevel', 'error'] : ['-v', 'error'];
    const child = spawn(tool, [...head, ...args], { stdio: ['ignore', 'pipe', 'pipe'], signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new VideoToolError(lastLine(Buffer.concat(err).toString('utf8')) || `${tool} exited with ${code}`),
        );
    });
  });
}

export async function withTemp<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-video-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
