/**
 * Second-order filters from the RBJ audio EQ cookbook: the tone shaping of the instruments, the
 * mastering EQ and the K-weighting of the loudness meter are all made of these.
 */
export type FilterKind = 'lowpass' | 'highpass' | 'bandpass' | 'peaking' | 'lowshelf' | 'highshelf';

export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/** Coefficients, normalised by a0. `gainDb` matters for peaking and shelves only. */
export function biquad(
  kind: FilterKind,
  frequency: number,
  rate: number,
  q = Math.SQRT1_2,
  gainDb = 0,
): Biquad {
  const w = (2 * Math.PI * Math.min(frequency, rate * 0.49)) / rate;
  const cos = Math.cos(w);
  const alpha = Math.sin(w) / (2 * q);
  const a = 10 ** (gainDb / 40);
  let b0: number, b1: number, b2: number, a0: number, a1: number, a2: number;
  switch (kind) {
    case 'lowpass':
      [b0, b1, b2] = [(1 - cos) / 2, 1 - cos, (1 - cos) / 2];
      [a0, a1, a2] = [1 + alpha, -2 * cos, 1 - alpha];
      break;
    case 'highpass':
      [b0, b1, b2] = [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
      [a0, a1, a2] = [1 + alpha, -2 * cos, 1 - alpha];
      break;
    case 'bandpass':
      [b0, b1, b2] = [alpha, 0, -alpha];
      [a0, a1, a2] = [1 + alpha, -2 * cos, 1 - alpha];
      break;
    case 'peaking':
      [b0, b1, b2] = [1 + alpha * a, -2 * cos, 1 - alpha * a];
      [a0, a1, a2] = [1 + alpha / a, -2 * cos, 1 - alpha / a];
      break;
    case 'lowshelf': {
      const s = 2 * Math.sqrt(a) * alpha;
      [b0, b1, b2] = [
        a * (a + 1 - (a - 1) * cos + s),
        2 * a * (a - 1 - (a + 1) * cos),
        a * (a + 1 - (a - 1) * cos - s),
      ];
      [a0, a1, a2] = [a + 1 + (a - 1) * cos + s, -2 * (a - 1 + (a + 1) * cos), a + 1 + (a - 1) * cos - s];
      break;
    }
    case 'highshelf': {
      const s = 2 * Math.sqrt(a) * alpha;
      [b0, b1, b2] = [
        a * (a + 1 + (a - 1) * cos + s),
        -2 * a * (a - 1 + (a + 1) * cos),
        a * (a + 1 + (a - 1) * cos - s),
      ];
      [a0, a1, a2] = [a + 1 - (a - 1) * cos + s, 2 * (a - 1 - (a + 1) * cos), a + 1 - (a - 1) * cos - s];
      break;
    }
  }
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0 };
}

/** Filters `samples` in place (direct form I, starting from rest). Linear: filtering a sum is the sum of the filtered parts. */
export function filter(samples: Float32Array, f: Biquad): Float32Array {
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const x = samples[i]!;
    const y = f.b0 * x + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    samples[i] = y;
  }
  return samples;
}

/** A chain of filters applied one after the other, in place. */
export function filterChain(samples: Float32Array, chain: readonly Biquad[]): Float32Array {
  for (const f of chain) filter(samples, f);
  return samples;
}
