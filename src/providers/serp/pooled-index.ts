/**
 * The local index searched on worker threads. A search of a large index takes milliseconds to
 * tens of milliseconds of synchronous SQLite (13.5 ms p50 on a million documents): on the thread
 * that serves requests it would hold up every other request meanwhile, and one process would
 * answer one search at a time whatever its cores. Threads end after a few idle seconds, as every
 * engine pool's do, and starting one (its modules, then the index) costs more than a search of a
 * small index: while none is ready, a search runs here as before and a thread is started beside
 * it, so that a server searched now and then answers as fast as it did.
 *
 * A search that ranks by meaning always runs on a thread: the sentence encoder it loads (about
 * 150 MiB) leaves with the thread, where on this thread it would stay for the process's life.
 *
 * This thread keeps its own connection for what is not a search: opening (creating or upgrading)
 * the index before any thread does, the kept files that results link to, and remembering queries,
 * so that the index has one writer (threads writing side by side wait on SQLite's lock, in sleeps
 * of up to 100 ms: four clients got a sixth of the searches through when the threads wrote).
 */
import { availableParallelism } from 'node:os';
import { EmbeddingModelMissing, IndexVersionError, SearchIndex } from '../../engines/searchindex/index.js';
import { scriptNextTo, StepPool } from '../../engines/worker-pool.js';
import { LocalIndex, type LocalIndexOptions, type Searched } from './local.js';
import type * as steps from './search-steps.js';
import type { KeptFile, KeptFiles } from '../kept-files.js';
import type { SerpBackend, SerpQuery, SerpResult } from './types.js';
import type { StopSignal } from '../stop-signal.js';

/**
 * Queries to remember are written together, once a second at most: any write through another
 * connection makes SQLite drop each thread's page cache before its next search, which cost a
 * search of 200 000 documents about 3 ms at the median when every search wrote.
 */
const REMEMBER_MS = 1000;

/**
 * A thread that could not open the index (its file locked by a long write, say) is tried again
 * this long after: meanwhile searches run on the serving thread.
 */
const RETRY_MS = 60_000;

export class PooledIndex implements SerpBackend, KeptFiles {
  private readonly pool: StepPool<typeof steps>;
  private here: LocalIndex | undefined;
  /** A thread has opened the index: searches go to the threads while any runs. */
  private ready = false;
  /** A thread is opening the index: searches stay here meanwhile. */
  private warming = false;
  /** When a thread may try again to open the index, after one could not. */
  private retryAt = 0;
  /** Searches answered on the threads whose queries are still to be remembered. */
  private toRemember: Searched[] = [];
  private remembering: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly options: LocalIndexOptions,
    workers = availableParallelism(),
  ) {
    this.pool = new StepPool(scriptNextTo(import.meta.url, 'search-worker'), workers, {
      IndexVersionError,
      EmbeddingModelMissing,
    });
  }

  /** Whether searches go to the threads now: one has the index open and is still running. */
  get pooled(): boolean {
    return this.ready && this.pool.threads > 0;
  }

  async search(query: SerpQuery, signal: StopSignal, scope?: string): Promise<SerpResult> {
    const here = this.local();
    // A search that embeds (its query, at least) loads the encoder where it runs: on a thread,
    // which gives its memory back when it ends idle, never on this one, which would keep it.
    if (this.pooled || here.embeds()) {
      const { result, found } = await this.pool.run('answer', this.file, this.options, query, scope);
      this.rememberSoon({ query, found, scope });
      return result;
    }
    if (!this.warming && Date.now() >= this.retryAt) this.warm();
    return here.search(query, signal, scope);
  }

  /** Starts a thread (the pool's threads all ended idle) and has it open the index. */
  private warm(): void {
    this.warming = true;
    this.ready = false;
    this.pool
      .run('open', this.file, this.options)
      .then(
        () => (this.ready = true),
        () => (this.retryAt = Date.now() + RETRY_MS),
      )
      .finally(() => (this.warming = false));
  }

  /** Writes the searches answered on the threads together, at most `REMEMBER_MS` after the first. */
  private rememberSoon(searched: Searched): void {
    this.toRemember.push(searched);
    this.remembering ??= setTimeout(() => this.rememberNow(), REMEMBER_MS).unref();
  }

  private rememberNow(): void {
    clearTimeout(this.remembering);
    this.remembering = undefined;
    const searches = this.toRemember.splice(0);
    if (searches.length > 0) this.local().remember(searches);
  }

  keptFile(key: string, path: string): KeptFile | undefined {
    return this.local().keptFile(key, path);
  }

  async close(): Promise<void> {
    this.rememberNow();
    await this.pool.close();
    await this.here?.close();
  }

  /** This thread's index, opened first: it makes or upgrades the file before a worker reads it. */
  private local(): LocalIndex {
    this.here ??= new LocalIndex(new SearchIndex(this.file), this.options);
    return this.here;
  }
}
