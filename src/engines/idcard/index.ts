/** The ID card engine: a photographed resident identity card read and checked on worker threads. */
export { parseIdNumber } from './id-number.js';
export { IdcardPool } from './pool.js';
export { missingModelPackages, MODEL_PACKAGES } from './model-packages.js';
