// One process of bench/scale.mjs: `node bench/scale-node.mjs CONFIG api|worker`, the real
// application from dist/ with the instant engine. Prints `ready` once it serves or works.
import { loadConfig } from '../dist/config/index.js';
import { openServices, startWorkers } from '../dist/services.js';
import { buildApp } from '../dist/http/app.js';
import { instantProviders } from './instant.mjs';

const config = loadConfig({ file: process.argv[2], env: {} });
const services = await openServices(config, { providers: instantProviders() });
if (process.argv[3] === 'worker') {
  await startWorkers(services);
} else {
  const app = await buildApp(services);
  await app.listen({ port: config.port, host: config.host });
}
console.log('ready');
