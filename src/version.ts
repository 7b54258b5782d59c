/** The service version, as published in OpenAPI and `--version`. */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const VERSION = (require('../package.json') as { version: string }).version;
