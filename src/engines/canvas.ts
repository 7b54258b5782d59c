/** The pixel buffer every engine paints into and reads from: RGBA, 8 bits per channel. */
export interface Canvas {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Uint8Array;
}

export function canvasOf(width: number, height: number): Canvas {
  return { width, height, data: new Uint8Array(width * height * 4) };
}
