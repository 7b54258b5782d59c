/**
 * One channel of an image as numbers, row by row: the reader's luminance rasters and the image
 * checks' sampled regions alike.
 */
export interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

export const planeOf = (width: number, height: number): Plane => ({
  width,
  height,
  data: new Float32Array(width * height),
});
