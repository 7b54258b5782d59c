/**
 * The llama.cpp runtime, loaded once per process and only when a local model is opened:
 * `node-llama-cpp` is an optional dependency, and a service without local models must start
 * (and start fast) without it.
 *
 * It never builds or downloads anything: the prebuilt CPU binary of `@node-llama-cpp/<platform>`
 * (installed from the npm registry with the package) is the only one used. `build: 'never'`
 * forbids compiling llama.cpp (which would fetch its sources from GitHub) and `gpu: false` keeps
 * it off the GPU variants, whose probing and binaries we do not rely on.
 */
import type { Llama, LlamaLogLevel } from 'node-llama-cpp';
import { LocalLlmError } from './errors.js';

export type NodeLlamaCpp = typeof import('node-llama-cpp');

export interface RuntimeOptions {
  /** Where llama.cpp's own log lines go; default: warnings and errors on stderr. */
  logger?: (level: LlamaLogLevel, message: string) => void;
}

let library: Promise<NodeLlamaCpp> | undefined;
let runtime: Promise<Llama> | undefined;

type LogListener = (level: LlamaLogLevel, message: string) => void;
const listeners = new Set<LogListener>();

/**
 * Hears llama.cpp's log lines until the returned function is called. The native loader explains
 * a failure only there ("tensor … is not within the file bounds"), while the error it throws says
 * "Failed to load model"; listening while a model loads lets that explanation reach the error.
 */
export function listenToLlamaLogs(listener: LogListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The node-llama-cpp module, imported on first use. */
export function nodeLlamaCpp(): Promise<NodeLlamaCpp> {
  library ??= import('node-llama-cpp').catch((error: unknown) => {
    library = undefined;
    throw new LocalLlmError(
      'runtime_unavailable',
      `node-llama-cpp is not installed (it is an optional dependency): ${(error as Error).message}`,
      { cause: error },
    );
  });
  return library;
}

/**
 * The one llama.cpp binding of the process. Options apply to the first call only: the binding
 * (and its thread pool) is shared by every model opened afterwards.
 */
export function llamaRuntime(options: RuntimeOptions = {}): Promise<Llama> {
  runtime ??= nodeLlamaCpp()
    .then(({ getLlama, Llama, LlamaLogLevel }) =>
      getLlama({
        gpu: false,
        build: 'never',
        skipDownload: true,
        usePrebuiltBinaries: true,
        progressLogs: false,
        logLevel: LlamaLogLevel.warn,
        logger: (level, message) => {
          for (const listener of listeners) listener(level, message);
          (options.logger ?? Llama.defaultConsoleLogger)(level, message);
        },
      }),
    )
    .catch((error: unknown) => {
      runtime = undefined;
      if (error instanceof LocalLlmError) throw error;
      throw new LocalLlmError(
        'runtime_unavailable',
        `no usable prebuilt llama.cpp binary for ${process.platform}-${process.arch}: ${(error as Error).message}`,
        { cause: error },
      );
    });
  return runtime;
}
