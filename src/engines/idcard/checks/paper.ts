/**
 * The paper of a set of card pixels, gathered one pixel at a time: its colour (the median of each
 * channel) and how much fine detail it carries (guilloche lines, or none on a flat patch).
 * Histograms keep both to one pass over the pixels, however many there are.
 */

/** Median of 8-bit values from their histogram. */
function histogramMedian(counts: Uint32Array, total: number): number {
  let seen = 0;
  for (let v = 0; v < counts.length; v++) {
    seen += counts[v]!;
    if (seen * 2 > total) return v;
  }
  return counts.length - 1;
}

/** Fine detail is histogrammed in tenths of a grey level, up to this many levels. */
const DETAIL_LEVELS = 25.6;

/** The paper of a set of pixels: per channel a histogram, and one of its fine detail. */
export class Paper {
  readonly counts = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  readonly detail = new Uint32Array(256);
  size = 0;

  add(data: Uint8Array, o: number, detail: number): void {
    this.counts[0]![data[o]!]!++;
    this.counts[1]![data[o + 1]!]!++;
    this.counts[2]![data[o + 2]!]!++;
    this.detail[Math.min(255, Math.floor((detail * 256) / DETAIL_LEVELS))]!++;
    this.size++;
  }

  level(channel: number): number {
    return histogramMedian(this.counts[channel]!, this.size);
  }

  /**
   * The detail three quarters of the paper stays under: guilloche lines cover much of a card's
   * paper; a copier's specks or a speck of dust do not move it.
   */
  texture(): number {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += this.detail[v]!;
      if (seen * 4 > this.size * 3) return ((v + 0.5) * DETAIL_LEVELS) / 256;
    }
    return DETAIL_LEVELS;
  }
}
