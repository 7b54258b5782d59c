/**
 * The 4-connected parts of a binary raster (a mask of foreground, of washed-out pixels, of
 * background), labelled by one flood fill per part over a preallocated stack.
 */
export interface Parts {
  /** Per pixel, its part's number from 1, or 0 outside the set. */
  label: Int32Array;
  /** Pixels per part, indexed by number (index 0 unused). */
  sizes: number[];
}

export function partsOf(set: Uint8Array, width: number): Parts {
  const label = new Int32Array(set.length);
  const sizes = [0];
  const stack = new Int32Array(set.length);
  for (let start = 0; start < set.length; start++) {
    if (!set[start] || label[start]) continue;
    const part = sizes.length;
    let size = 0;
    let top = 0;
    label[start] = part;
    stack[top++] = start;
    while (top > 0) {
      const i = stack[--top]!;
      size++;
      const x = i % width;
      if (x > 0 && set[i - 1] && !label[i - 1]) {
        label[i - 1] = part;
        stack[top++] = i - 1;
      }
      if (x < width - 1 && set[i + 1] && !label[i + 1]) {
        label[i + 1] = part;
        stack[top++] = i + 1;
      }
      if (i >= width && set[i - width] && !label[i - width]) {
        label[i - width] = part;
        stack[top++] = i - width;
      }
      if (i + width < set.length && set[i + width] && !label[i + width]) {
        label[i + width] = part;
        stack[top++] = i + width;
      }
    }
    sizes.push(size);
  }
  return { label, sizes };
}
