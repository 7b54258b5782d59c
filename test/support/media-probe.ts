/**
 * Independent checks of produced media with Debian's ffprobe and ffmpeg: container, codecs,
 * durations, loudness (EBU R128 by ffmpeg's ebur128 filter), and decoded samples for
 * comparisons.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

function fileOf(bytes: Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'switchyard-probe-')), 'media');
  writeFileSync(path, bytes);
  return path;
}

export interface Probe {
  format: { format_name: string; duration: string };
  streams: {
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    duration?: string;
    r_frame_rate?: string;
    nb_frames?: string;
  }[];
}

export async function probe(bytes: Buffer): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_format',
    '-show_streams',
    '-of',
    'json',
    fileOf(bytes),
  ]);
  return JSON.parse(stdout) as Probe;
}

export function durationOf(probed: Probe): number {
  return Number(probed.format.duration);
}

/** Integrated loudness (LUFS) and true peak (dBTP) as ffmpeg's ebur128 filter measures them. */
export async function loudness(bytes: Buffer): Promise<{ lufs: number; truePeak: number }> {
  const { stderr } = await run(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', fileOf(bytes), '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const lufs = Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]);
  const truePeak = Number(/Peak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1]);
  return { lufs, truePeak };
}

/** Stereo float samples at 44.1 kHz, interleaved. */
export function decode(bytes: Buffer): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', [
      '-v',
      'error',
      '-i',
      fileOf(bytes),
      '-f',
      'f32le',
      '-ar',
      '44100',
      '-ac',
      '2',
      'pipe:1',
    ]);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg exited with ${code}`));
      const all = Buffer.concat(chunks);
      resolve(new Float32Array(all.buffer, all.byteOffset, all.byteLength / 4));
    });
  });
}

/** 10·log10 of the energy of (a − b) over the energy of a, on their common length. */
export function residualDb(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let error = 0;
  let energy = 0;
  for (let i = 0; i < n; i += 1) {
    error += (a[i]! - b[i]!) ** 2;
    energy += a[i]! ** 2;
  }
  return 10 * Math.log10(error / energy);
}

export function sum(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(Math.max(...parts.map((p) => p.length)));
  for (const part of parts) for (let i = 0; i < part.length; i += 1) out[i]! += part[i]!;
  return out;
}

/** A WAV file (16-bit stereo) of the given interleaved samples, as an upload. */
export function wavOf(samples: Float32Array, rate = 44100): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i += 1)
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
