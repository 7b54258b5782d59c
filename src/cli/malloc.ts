/**
 * glibc's malloc told to give memory back (native/malloc.c says why): large blocks returned when
 * freed, and free pages returned when the process goes quiet. The addon is built by `make` (into
 * dist/native); where it is not (a checkout run from source, a libc other than glibc) both are
 * left undone and the process runs as before.
 */
import { nativeAddon } from '../engines/native-addon.js';

/** glibc's own starting threshold, kept from moving up. */
export const MMAP_THRESHOLD = 128 * 1024;

interface Malloc {
  setMmapThreshold(bytes: number): boolean;
  trim(): boolean;
}

let addon: Malloc | null | undefined;

function malloc(): Malloc | null {
  try {
    addon ??= nativeAddon<Malloc>('malloc');
  } catch {
    addon = null;
  }
  return addon;
}

/** Fixes the threshold for the whole process, its worker threads included; false where it could not. */
export function fixMmapThreshold(): boolean {
  return malloc()?.setMmapThreshold(MMAP_THRESHOLD) ?? false;
}

/** Gives the free pages of every arena back to the system. */
export function trimMalloc(): void {
  malloc()?.trim();
}
