/**
 * The `switchyard` command. Scripts and operators depend on these command and flag names: they
 * are documented in docs/cli.md and kept stable.
 */
import { Command, Option } from 'commander';
import { VERSION } from '../version.js';
import { ConfigError } from '../config/index.js';
import type { ServeFlags } from './serve.js';
import { tokenCommands } from './token.js';
import { searchCommands } from './search.js';
import { identityCommands } from './identity.js';
import { adminCommands } from './admin.js';
import { accountCommands } from './accounts.js';

const program = new Command('switchyard')
  .description('Self-hosted search, video, music, chat, QR art and ID-card API')
  .version(VERSION)
  .showHelpAfterError();

// The server and its engines load only for `serve` and `worker`: the other commands, run by
// scripts many times over, start in half the time without them.
const server = () => import('./serve.js');

const configOption = () => new Option('--config <file>', 'configuration file (YAML); or SWITCHYARD_CONFIG');

program
  .command('serve')
  .description('start the HTTP server')
  .addOption(configOption())
  .option('--port <port>', 'port to listen on', (v) => Number(v))
  .option('--host <host>', 'address to listen on')
  .option('--data-dir <dir>', 'where the database and files live')
  .action(async (flags: ServeFlags) => (await server()).serve(flags));

program
  .command('worker')
  .description('run task workers and callback deliveries only (needs redis.url)')
  .addOption(configOption())
  .action(async (flags: { config?: string }) => (await server()).work(flags));

program.addCommand(tokenCommands(configOption));
program.addCommand(accountCommands(configOption));
program.addCommand(searchCommands(configOption));
program.addCommand(identityCommands(configOption));
for (const command of adminCommands(configOption)) program.addCommand(command);

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(
    `switchyard: ${error instanceof ConfigError ? error.message : (error as Error).message}\n`,
  );
  process.exit(error instanceof ConfigError ? 2 : 1);
});
