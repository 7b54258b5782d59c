// The render worker when the service runs from source (tests, tsx): tsx's loader is registered
// in the worker thread first, then the TypeScript worker is loaded. Built, pool.ts starts
// render-worker.js directly and this file is not used.
import { register } from 'tsx/esm/api';

register();
await import('./render-worker.ts');
