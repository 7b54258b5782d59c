/**
 * The engine's ffmpeg edges: several stems encoded and decoded by one ffmpeg each way, every
 * file back in its place and intact, and a bad file among them named as unreadable.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeAudio,
  decodeAudioAll,
  encodeAudioAll,
  UnreadableAudio,
} from '../../src/engines/audio/ffmpeg.js';
import { durationOf, frames, type Pcm } from '../../src/engines/audio/dsp/pcm.js';

const RATE = 44100;

/** A stereo tone of its own pitch and length, so that files swapped in order would show. */
function tone(seconds: number, hz: number): Pcm {
  const left = new Float32Array(Math.round(seconds * RATE));
  const right = new Float32Array(left.length);
  for (let i = 0; i < left.length; i += 1) {
    left[i] = 0.5 * Math.sin((2 * Math.PI * hz * i) / RATE);
    right[i] = 0.25 * Math.cos((2 * Math.PI * hz * i) / RATE);
  }
  return { rate: RATE, channels: [left, right] };
}

function largestDifference(a: Pcm, b: Pcm): number {
  let largest = 0;
  a.channels.forEach((channel, c) => {
    channel.forEach((sample, i) => {
      largest = Math.max(largest, Math.abs(sample - b.channels[c]![i]!));
    });
  });
  return largest;
}

describe('ffmpeg for the audio engine', () => {
  it('encodes stems to FLAC and decodes them back, each in its place, with one process each way', async () => {
    const stems = [tone(1, 220), tone(1.5, 330), tone(0.5, 440)];
    const files = await encodeAudioAll(stems, 'flac');
    expect(files.map((file) => file.subarray(0, 4).toString('latin1'))).toEqual(['fLaC', 'fLaC', 'fLaC']);
    const decoded = await decodeAudioAll(files, 60);
    expect(decoded.map((pcm) => frames(pcm))).toEqual(stems.map((pcm) => frames(pcm)));
    decoded.forEach((pcm, n) => expect(largestDifference(pcm, stems[n]!)).toBeLessThan(1e-6));
  });

  it('reads at most the seconds asked for', async () => {
    const [file] = await encodeAudioAll([tone(3, 220)], 'wav');
    expect(durationOf(await decodeAudio(file!, 1))).toBeCloseTo(1, 3);
  });

  it('names a file that is not audio, also among good ones', async () => {
    const [good] = await encodeAudioAll([tone(0.5, 220)], 'flac');
    const bad = Buffer.from('not audio at all');
    await expect(decodeAudioAll([good!, bad], 60)).rejects.toBeInstanceOf(UnreadableAudio);
    await expect(decodeAudio(bad, 60)).rejects.toBeInstanceOf(UnreadableAudio);
  });

  it('stops when the work is abandoned', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(encodeAudioAll([tone(1, 220)], 'flac', controller.signal)).rejects.toThrow(/abort/i);
  });
});
