/**
 * RGBA frames to planar YUV 4:2:0 (I420), the format H.264 is encoded in, converted by a native
 * addon (native/yuv.c, built by `make`) with the coefficients and limited range of ffmpeg's own
 * conversion. Handing the encoder YUV lets it read 1.5 bytes a pixel instead of 4 and skip its
 * scaler, which spent a third of its time on 720p frames; the addon converts in a third of the
 * scaler's time, where JavaScript took as long as the scaler.
 */
import { nativeAddon } from '../native-addon.js';

interface Yuv {
  rgbaToI420(frame: Int32Array, width: number, height: number, out: Uint8Array): void;
}

/** Bytes of one I420 frame: a full-size luma plane and two chroma planes of half width and height. */
export function i420Size(width: number, height: number): number {
  return width * height + 2 * ((width + 1) >> 1) * ((height + 1) >> 1);
}

/** Writes `frame` (RGBA words, width × height) into `out` (at least `i420Size` bytes) as I420. */
export function rgbaToI420(frame: Int32Array, width: number, height: number, out: Uint8Array): void {
  nativeAddon<Yuv>('yuv').rgbaToI420(frame, width, height, out);
}
