/** A worker thread that answers searches of the local index for the pool (pooled-index.ts). */
import { EmbeddingModelMissing, IndexVersionError } from '../../engines/searchindex/index.js';
import { serveMethods } from '../../engines/worker-methods.js';
import * as steps from './search-steps.js';

serveMethods(steps, { IndexVersionError, EmbeddingModelMissing });
