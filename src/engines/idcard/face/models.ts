/**
 * The face models of @vladmandic/face-api (the tiny face detector, 68 landmarks, the 128-number
 * face descriptor) on TensorFlow.js's WebAssembly backend, whose .wasm files are read from
 * node_modules: nothing is fetched and no native TensorFlow is needed. Loaded on first use and
 * kept for the life of the worker thread; the backend runs on that thread alone.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { missingModel } from '../../model-missing.js';

export type FaceApi = typeof import('@vladmandic/face-api');

const require = createRequire(import.meta.url);

function resolved(path: string, packageName: string): string {
  try {
    return require.resolve(path);
  } catch (cause) {
    throw missingModel(packageName, 'the ID card portrait check', cause);
  }
}

async function load(): Promise<FaceApi> {
  const wasm = resolved(
    '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm',
    '@tensorflow/tfjs-backend-wasm',
  );
  const weights = resolved(
    '@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json',
    '@vladmandic/face-api',
  );
  let faceapi: FaceApi;
  try {
    faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  } catch (cause) {
    throw missingModel('@vladmandic/face-api with @tensorflow/tfjs', 'the ID card portrait check', cause);
  }
  // The node-wasm build re-exports all of @tensorflow/tfjs and the WASM backend, beyond its types.
  const tf = faceapi.tf as unknown as {
    setWasmPaths(prefix: string): void;
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
  };
  tf.setWasmPaths(`${dirname(wasm)}/`);
  await tf.setBackend('wasm');
  await tf.ready();
  const folder = dirname(weights);
  await Promise.all([
    faceapi.nets.tinyFaceDetector.loadFromDisk(folder),
    faceapi.nets.faceLandmark68Net.loadFromDisk(folder),
    faceapi.nets.faceRecognitionNet.loadFromDisk(folder),
  ]).catch((cause: unknown) => {
    throw missingModel('@vladmandic/face-api', 'the ID card portrait check', cause);
  });
  return faceapi;
}

let loading: Promise<FaceApi> | undefined;

/** face-api with its models, loaded once per thread; a failed load is tried again on the next call. */
export function faceModels(): Promise<FaceApi> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
