/**
 * A real server process with the test capability, for tests that must kill it:
 * `node --import tsx test/support/task-server.ts CONFIG`. Prints `ready` once it listens.
 */
import { loadConfig } from '../../src/config/index.js';
import { openServices, startWorkers } from '../../src/services.js';
import { buildApp } from '../../src/http/app.js';
import { testProviders } from './test-capability.js';

const config = loadConfig({ file: process.argv[2] });
const services = await openServices(config, { providers: testProviders() });
const app = await buildApp(services);
await startWorkers(services);
await app.listen({ port: config.port, host: config.host });
process.stdout.write('ready\n');
