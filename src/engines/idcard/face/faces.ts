/**
 * Faces in a picture, by the tiny face detector: where the most certain one is, and its
 * descriptor (128 numbers from the face aligned on its 68 landmarks; photos of one person lie
 * close together, of two people further apart).
 */
import type { Canvas } from '../../canvas.js';
import type { Box } from '../layout.js';
import { faceModels, type FaceApi } from './models.js';

/**
 * The detector's input sides (multiples of 32): a card's face is a sixth of its width, a
 * portrait's most of it. A card is searched at the first size, and where no face stands out
 * there, at the others: a photocopy's grey, hard face stands out at 320 where it does not at 416.
 */
const CARD_INPUTS = [416, 320, 512];
const CARD_INPUT = CARD_INPUTS[0]!;
const PORTRAIT_INPUT = 224;
const MIN_SCORE = 0.4;

export interface Face {
  box: Box;
  score: number;
}

function tensorOf(faceapi: FaceApi, canvas: Canvas) {
  const rgb = new Int32Array(canvas.width * canvas.height * 3);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgb[i] = canvas.data[j]!;
    rgb[i + 1] = canvas.data[j + 1]!;
    rgb[i + 2] = canvas.data[j + 2]!;
  }
  return faceapi.tf.tensor3d(rgb, [canvas.height, canvas.width, 3], 'int32');
}

const options = (faceapi: FaceApi, inputSize: number) =>
  new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold: MIN_SCORE });

/**
 * The most certain face on a rectified card at least `minWidth` wide (smaller ones are a detail of
 * the stock or the print, not an ID photo's face), or null when the detector finds none.
 */
export async function faceOnCard(card: Canvas, minWidth: number): Promise<Face | null> {
  const faceapi = await faceModels();
  const input = tensorOf(faceapi, card);
  try {
    for (const size of CARD_INPUTS) {
      const found = await faceapi.detectAllFaces(input as never, options(faceapi, size));
      const best = found.filter((f) => f.box.width >= minWidth).sort((a, b) => b.score - a.score)[0];
      if (!best) continue;
      const { x, y, width, height } = best.box;
      return { box: { x, y, width, height }, score: best.score };
    }
    return null;
  } finally {
    input.dispose();
  }
}

/**
 * The descriptor of the most certain face in a portrait, the mean of the portrait's and its
 * mirror image's (a drawn face's two sides differ; the mean of both brings one person's photos
 * closer together), or null when no face is found.
 */
export async function descriptorOf(portrait: Canvas): Promise<Float32Array | null> {
  const faceapi = await faceModels();
  const seen = await descriptorsOf(faceapi, portrait);
  if (!seen) return null;
  const mirrored = await descriptorsOf(faceapi, mirror(portrait));
  return mirrored ? seen.map((value, i) => (value + mirrored[i]!) / 2) : seen;
}

function mirror(canvas: Canvas): Canvas {
  const out = { width: canvas.width, height: canvas.height, data: new Uint8Array(canvas.data.length) };
  const from = new Uint32Array(canvas.data.buffer, canvas.data.byteOffset, canvas.width * canvas.height);
  const into = new Uint32Array(out.data.buffer);
  for (let y = 0; y < canvas.height; y++)
    for (let x = 0; x < canvas.width; x++)
      into[y * canvas.width + canvas.width - 1 - x] = from[y * canvas.width + x]!;
  return out;
}

async function descriptorsOf(faceapi: FaceApi, portrait: Canvas): Promise<Float32Array | null> {
  const input = tensorOf(faceapi, portrait);
  try {
    const inputSize =
      Math.max(portrait.width, portrait.height) > 2 * PORTRAIT_INPUT ? CARD_INPUT : PORTRAIT_INPUT;
    const found = await faceapi
      .detectAllFaces(input as never, options(faceapi, inputSize))
      .withFaceLandmarks()
      .withFaceDescriptors();
    const best = found.sort((a, b) => b.detection.score - a.detection.score)[0];
    return best ? best.descriptor : null;
  } finally {
    input.dispose();
  }
}

export function descriptorDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}
