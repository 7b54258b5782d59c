/**
 * The compiled server as a child process on a machine that lacks some tools: its PATH holds only
 * the tools named (and what bin/switchyard itself needs), linked from this machine's PATH.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server.js';

const run = promisify(execFile);
const BIN = resolve('bin/switchyard');
/** What the launcher script runs before Node. */
const LAUNCHER_TOOLS = ['bash', 'dirname', 'readlink'];

export interface LimitedServer {
  /** POST `body` as JSON with the server's token. */
  post: (path: string, body: unknown) => Promise<Response>;
  close: () => void;
}

export async function serverWithOnly(tools: readonly string[]): Promise<LimitedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-few-tools-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const tool of [...tools, ...LAUNCHER_TOOLS])
    symlinkSync((await run('bash', ['-c', `command -v ${tool}`])).stdout.trim(), join(bin, tool));
  symlinkSync(process.execPath, join(bin, 'node'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = join(dir, 'switchyard.yaml');
  writeFileSync(config, `port: ${port}\ndata_dir: ${dir}\nlog:\n  level: warn\n`);
  const env = { ...process.env, SWITCHYARD_CONFIG: config, PATH: bin };
  const token = (await run(BIN, ['token', 'create', '--name', 't'], { env })).stdout.trim();
  const server = spawn(BIN, ['serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let tries = 0; (await fetch(`${base}/readyz`).catch(() => undefined))?.ok !== true; tries += 1) {
    if (tries > 150) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    post: (path, body) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    close: () => {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
