/**
 * The ID card engine off the event loop: each card is read on a worker thread, one card per
 * thread at a time; each thread loads the text and face models once, on its first card.
 */
import { UnreadableImage } from '../image-codec.js';
import { ModelMissing } from '../model-missing.js';
import { scriptNextTo, StepPool } from '../worker-pool.js';
import type { Measures } from './face/similarity.js';
import type * as steps from './steps.js';

/**
 * onnxruntime-node's addon registers itself once per process: loaded by worker threads alone, it
 * cannot load in a new worker once every thread that held it has ended (the pool ends idle
 * workers). So the main thread holds it too; where it is missing, the workers say so.
 */
let runtimeHeld: Promise<unknown> | undefined;
const holdTextRuntime = () => (runtimeHeld ??= import('onnxruntime-node').catch(() => undefined));

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export interface CardInspection extends Omit<steps.Inspection, 'portrait' | 'card'> {
  portrait: Buffer | null;
  card: Buffer;
}

export class IdcardPool {
  private readonly pool: StepPool<typeof steps>;

  /** `size`: cards read at a time, each on its own thread. */
  constructor(readonly size: number) {
    void holdTextRuntime();
    this.pool = new StepPool(scriptNextTo(import.meta.url, 'idcard-worker'), size, {
      UnreadableImage,
      ModelMissing,
    });
  }

  /** The card's fields alone. */
  read(image: Buffer): Promise<steps.Reading> {
    return this.pool.run('read', image);
  }

  async inspect(image: Buffer): Promise<CardInspection> {
    const found = await this.pool.run('inspect', image);
    return { ...found, portrait: found.portrait && asBuffer(found.portrait), card: asBuffer(found.card) };
  }

  similarity(a: Buffer, b: Buffer): Promise<number> {
    return this.pool.run('similarity', a, b);
  }

  /** The two measures the similarity is the higher of (for the benchmark's figures). */
  measures(a: Buffer, b: Buffer): Promise<Measures> {
    return this.pool.run('measures', a, b);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
