// What the benchmarks that run Switchyard as a chat gateway share: a configuration for
// `switchyard serve` from a dist/ with one chat channel to a loopback upstream, a token made by
// that dist's CLI, checked to have the credits asked for, and `serve` started as users start it.
import { execFile } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Writes `dir`/switchyard.yaml (JSON is YAML): `port` on loopback, data in `dir`, the channel to
 * `upstreamUrl` serving `model`, and `extra` sections; the log at its default level (a line per
 * request), as users run it. Then `cli token create` with `credits` (unlimited when undefined).
 * Answers the file, the token as the CLI printed it, the environment to run `cli` in (without the
 * caller's SWITCHYARD_* variables) and `logTo`: a file descriptor for the server's standard
 * output, a file in `dir` (a pipe nobody reads would fill and stall the server).
 */
export async function chatGatewaySetup({ cli, dir, port, upstreamUrl, model, name, credits, extra = {} }) {
  const config = {
    port,
    host: '127.0.0.1',
    data_dir: join(dir, 'data'),
    ...extra,
    channels: [
      {
        name: 'bench-upstream',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: upstreamUrl,
        api_key: 'sk-bench-upstream',
        models: [model],
      },
    ],
  };
  const file = join(dir, 'switchyard.yaml');
  writeFileSync(file, JSON.stringify(config, null, 2));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SWITCHYARD_')));
  const { stdout } = await run(
    process.execPath,
    [
      cli,
      'token',
      'create',
      '--config',
      file,
      '--name',
      name,
      '--json',
      ...(credits === undefined ? [] : ['--credits', String(credits)]),
    ],
    { env },
  );
  const token = JSON.parse(stdout);
  if (token.credits !== (credits === undefined ? 'unlimited' : Number(credits)))
    throw new Error(`the bench token does not have the credits asked for: ${stdout}`);
  return { file, token, env, logTo: openSync(join(dir, 'server.log'), 'a') };
}

/**
 * `serve` as users start it: the tree's bin/switchyard (which picks Node's flags), for the `cli`
 * (TREE/dist/cli/main.js) and config `file` that chatGatewaySetup made. Answers what to spawn:
 * bin/switchyard execs Node, so the child's pid is the server's. With `cpuProfDir`, the `node`
 * that bin/switchyard finds first on the PATH is a script adding `--cpu-prof` (which
 * NODE_OPTIONS does not take) to the flags the launcher gave.
 */
export function serveCommand({ cli, file, env, cpuProfDir }) {
  const tree = resolve(dirname(cli), '../..');
  const serve = { command: join(tree, 'bin/switchyard'), args: ['serve', '--config', file], env };
  if (!cpuProfDir) return serve;
  // Beside the configuration, so that it goes when the benchmark removes its folder.
  const shim = join(dirname(file), 'node-shim');
  mkdirSync(shim, { recursive: true });
  writeFileSync(
    join(shim, 'node'),
    `#!/bin/sh\nexec '${process.execPath}' --cpu-prof '--cpu-prof-dir=${cpuProfDir}' "$@"\n`,
    { mode: 0o755 },
  );
  return { ...serve, env: { ...env, PATH: `${shim}:${env.PATH ?? ''}` } };
}
