// A pool's worker when the service runs from source (tests, tsx): tsx's loader is registered in
// the worker thread first, then the TypeScript script named by the pool is loaded. Built, the
// pool starts the compiled script directly and this file is not used.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.script);
