// What every benchmark shares: the machine it ran on, a free port, a process's CPU time, where
// results go, and the Node flags the launcher gives the server.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';

export function machine() {
  return {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}

export async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let clockTicks;

/** CPU seconds (user + system) a process has used so far, from /proc; null where there is none. */
export function cpuSeconds(pid) {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    clockTicks = 100;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3, state
    return (Number(fields[11]) + Number(fields[12])) / clockTicks; // fields 14 and 15
  } catch {
    return null;
  }
}

/** Writes bench/results/NAME.json. */
export function saveReport(name, report) {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/${name}.json`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
}

/**
 * The Node flags bin/switchyard starts the server with (its `young=` line), for a benchmark that
 * runs the server's code in a process of its own rather than through the launcher.
 */
export function launcherFlags() {
  const launcher = readFileSync(new URL('../bin/switchyard', import.meta.url), 'utf8');
  const young = /^young=(\S+)$/m.exec(launcher)?.[1];
  if (!young) throw new Error('bin/switchyard no longer sets young=…: update launcherFlags');
  return [young];
}
