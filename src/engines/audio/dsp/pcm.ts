/**
 * Audio as the engine holds it: float samples in [-1, 1], one array per channel, at one rate.
 * Every part of the engine (composition, separation, mastering, editing) speaks this form;
 * ffmpeg turns it into files and files into it.
 */
export const SAMPLE_RATE = 44_100;

export interface Pcm {
  rate: number;
  /** One array per channel, all of the same length: [left, right] for stereo. */
  channels: Float32Array[];
}

export function silence(seconds: number, channels = 2, rate = SAMPLE_RATE): Pcm {
  const length = Math.max(0, Math.round(seconds * rate));
  return { rate, channels: Array.from({ length: channels }, () => new Float32Array(length)) };
}

export function frames(pcm: Pcm): number {
  return pcm.channels[0]?.length ?? 0;
}

export function durationOf(pcm: Pcm): number {
  return frames(pcm) / pcm.rate;
}

/** The samples from `start` to `end` seconds, copied. */
export function slice(pcm: Pcm, start: number, end = durationOf(pcm)): Pcm {
  const from = Math.max(0, Math.round(start * pcm.rate));
  const to = Math.min(frames(pcm), Math.round(end * pcm.rate));
  return { rate: pcm.rate, channels: pcm.channels.map((c) => c.slice(from, Math.max(from, to))) };
}

/** One after the other. */
export function concat(parts: Pcm[]): Pcm {
  const first = parts[0];
  if (!first) return silence(0);
  const length = parts.reduce((sum, part) => sum + frames(part), 0);
  const channels = first.channels.map(() => new Float32Array(length));
  let at = 0;
  for (const part of parts) {
    channels.forEach((channel, c) => channel.set(part.channels[c] ?? part.channels[0]!, at));
    at += frames(part);
  }
  return { rate: first.rate, channels };
}

/** Sample by sample sum, as long as the longest; `gains` scale each part (1 when absent). */
export function mix(parts: Pcm[], gains: number[] = []): Pcm {
  const first = parts[0];
  if (!first) return silence(0);
  const length = Math.max(...parts.map(frames));
  const width = Math.max(...parts.map((p) => p.channels.length));
  const channels = Array.from({ length: width }, () => new Float32Array(length));
  parts.forEach((part, p) => {
    const gain = gains[p] ?? 1;
    channels.forEach((out, c) => {
      const source = part.channels[c] ?? part.channels[0]!;
      for (let i = 0; i < source.length; i += 1) out[i]! += gain * source[i]!;
    });
  });
  return { rate: first.rate, channels };
}

/** Adds `part` into `into` from `at` seconds, in place (what falls past the end is dropped). */
export function addInto(into: Pcm, part: Pcm, at: number, gain = 1): void {
  const offset = Math.round(at * into.rate);
  into.channels.forEach((out, c) => {
    const source = part.channels[c] ?? part.channels[0]!;
    const end = Math.min(source.length, out.length - offset);
    for (let i = Math.max(0, -offset); i < end; i += 1) out[offset + i]! += gain * source[i]!;
  });
}

/** Root mean square over every channel. */
export function rms(pcm: Pcm): number {
  let sum = 0;
  let count = 0;
  for (const channel of pcm.channels) {
    for (let i = 0; i < channel.length; i += 1) sum += channel[i]! * channel[i]!;
    count += channel.length;
  }
  return count === 0 ? 0 : Math.sqrt(sum / count);
}

/** Mono: the mean of the channels. */
export function mono(pcm: Pcm): Float32Array {
  const out = new Float32Array(frames(pcm));
  for (const channel of pcm.channels) {
    for (let i = 0; i < out.length; i += 1) out[i]! += channel[i]! / pcm.channels.length;
  }
  return out;
}
