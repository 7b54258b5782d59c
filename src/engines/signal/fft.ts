/**
 * An in-place radix-2 complex FFT: the spectral work of the engine (separation, key and tempo
 * analysis) runs on short frames, where this plain form is fast enough and has no dependency.
 */

/** Twiddle tables per size, computed once. */
const tables = new Map<number, { cos: Float64Array; sin: Float64Array; reversed: Uint32Array }>();

function tableOf(size: number) {
  let table = tables.get(size);
  if (!table) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new Error(`FFT size ${size} is not a power of two`);
    const cos = new Float64Array(size / 2);
    const sin = new Float64Array(size / 2);
    for (let i = 0; i < size / 2; i += 1) {
      cos[i] = Math.cos((2 * Math.PI * i) / size);
      sin[i] = Math.sin((2 * Math.PI * i) / size);
    }
    const bits = Math.log2(size);
    const reversed = new Uint32Array(size);
    for (let i = 0; i < size; i += 1) {
      let r = 0;
      for (let b = 0; b < bits; b += 1) r |= ((i >> b) & 1) << (bits - 1 - b);
      reversed[i] = r;
    }
    table = { cos, sin, reversed };
    tables.set(size, table);
  }
  return table;
}

/** Transforms (re, im) in place; `inverse` also divides by the size, so inverse(forward(x)) = x. */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const size = re.length;
  const { cos, sin, reversed } = tableOf(size);
  for (let i = 0; i < size; i += 1) {
    const j = reversed[i]!;
    if (j > i) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  const sign = inverse ? 1 : -1;
  for (let span = 2; span <= size; span *= 2) {
    const half = span / 2;
    const step = size / span;
    for (let start = 0; start < size; start += span) {
      for (let k = 0; k < half; k += 1) {
        const wr = cos[k * step]!;
        const wi = sign * sin[k * step]!;
        const a = start + k;
        const b = a + half;
        const tr = re[b]! * wr - im[b]! * wi;
        const ti = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
  if (inverse) {
    for (let i = 0; i < size; i += 1) {
      re[i] = re[i]! / size;
      im[i] = im[i]! / size;
    }
  }
}

/** A periodic Hann window, whose squares overlap-add to a constant at 75% overlap. */
export function hann(size: number): Float64Array {
  const window = new Float64Array(size);
  for (let i = 0; i < size; i += 1) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
  return window;
}
