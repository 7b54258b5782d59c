/** The local ID card engine's model packages, for the operator's health check of the engine (admin/local-probes.ts). */
export { missingModelPackages, MODEL_PACKAGES } from '../../engines/idcard/index.js';
