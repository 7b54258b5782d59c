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

/** `canvas` turned clockwise by `quarters` quarter turns (0–3). */
export function turned(canvas: Canvas, quarters: number): Canvas {
  const k = ((quarters % 4) + 4) % 4;
  if (k === 0) return canvas;
  const { width, height, data } = canvas;
  const out = k === 2 ? canvasOf(width, height) : canvasOf(height, width);
  const pixels = new Uint32Array(data.buffer, data.byteOffset, width * height);
  const into = new Uint32Array(out.data.buffer);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      // Where (x, y) lands after the turn.
      const [tx, ty] =
        k === 1 ? [height - 1 - y, x] : k === 2 ? [width - 1 - x, height - 1 - y] : [y, width - 1 - x];
      into[ty * out.width + tx] = pixels[y * width + x]!;
    }
  return out;
}
