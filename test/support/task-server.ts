/**
 * A real Switchyard process with the test capability, for tests that run several or kill one:
 * `node --import tsx test/support/task-server.ts CONFIG [worker]`. Without `worker` it serves
 * HTTP (and runs workers if `workers.embedded`); with it, it only works. Prints `ready`.
 */
import { loadConfig } from '../../src/config/index.js';
import { openServices, startWorkers } from '../../src/services.js';
import { buildApp } from '../../src/http/app.js';
import { testProviders } from './test-capability.js';

const config = loadConfig({ file: process.argv[2] });
const services = await openServices(config, { providers: testProviders() });
if (process.argv[3] === 'worker') {
  await startWorkers(services);
} else {
  const app = await buildApp(services);
  if (config.workers.embedded) await startWorkers(services);
  await app.listen({ port: config.port, host: config.host });
}
process.stdout.write('ready\n');
