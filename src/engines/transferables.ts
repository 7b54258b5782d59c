/**
 * What moves between threads instead of being copied: songs and frames are megabytes of typed
 * arrays, whose copy would hold up the thread that posts them.
 */

/** The buffers a value's typed arrays cover whole (a view of part of a buffer is copied instead). */
export function buffersOf(value: unknown, found: Set<ArrayBuffer>): Set<ArrayBuffer> {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer && value.byteLength === value.buffer.byteLength)
      found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) buffersOf(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) buffersOf(item, found);
  }
  return found;
}
