/**
 * Waveform overviews for players and editors: min/max peak pairs of the mono mix as 16-bit
 * integers, in a pyramid of levels that halve the resolution each time, so a client draws any
 * zoom from the level nearest its pixel density without touching the samples.
 */
import { type Pcm, mono } from '../dsp/pcm.js';

export interface WaveformOptions {
  /** Samples per pair at level 0: 1024 gives about 7,750 pairs for a three-minute song. */
  samplesPerPair?: number;
  /** Halving stops at the first level with this many pairs or fewer. */
  fewestPairs?: number;
}

export interface WaveformLevel {
  /** `[min, max]` per pair, in −32768..32767. */
  data: number[][];
  mip_map_level: number;
}

function toInt16(sample: number): number {
  // `| 0` also turns the -0 of a silent minimum into 0.
  return Math.max(-32768, Math.min(32767, Math.round(sample * 32767))) | 0;
}

/** Level 0 from the samples, then each level from the one before: `[min of mins, max of maxes]` of each two pairs. */
export function waveformAggregates(pcm: Pcm, options: WaveformOptions = {}): WaveformLevel[] {
  const samplesPerPair = options.samplesPerPair ?? 1024;
  const fewestPairs = options.fewestPairs ?? 64;
  const samples = mono(pcm);
  const base: number[][] = [];
  for (let start = 0; start < samples.length; start += samplesPerPair) {
    let low = Infinity;
    let high = -Infinity;
    for (let i = start; i < Math.min(samples.length, start + samplesPerPair); i += 1) {
      low = Math.min(low, samples[i]!);
      high = Math.max(high, samples[i]!);
    }
    base.push([toInt16(low), toInt16(high)]);
  }
  const levels: WaveformLevel[] = [{ data: base, mip_map_level: 0 }];
  let data = base;
  while (data.length > fewestPairs) {
    const next: number[][] = [];
    for (let i = 0; i < data.length; i += 2) {
      const [lowA, highA] = data[i] as [number, number];
      const [lowB, highB] = (data[i + 1] ?? data[i]) as [number, number];
      next.push([Math.min(lowA, lowB), Math.max(highA, highB)]);
    }
    data = next;
    levels.push({ data, mip_map_level: levels.length });
  }
  return levels;
}
