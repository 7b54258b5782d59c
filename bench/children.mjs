// The processes and folders a benchmark starts: each child killed and each folder removed when the
// benchmark exits, however it exits; the tail of a child's stderr kept to explain its failure; the
// loopback chat upstream (bench/chat-upstream.mjs) that the chat benchmarks share, and the bare
// relay (bench/chat-relay.mjs) that bench/chat.mjs measures gateways against.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const children = new Set();
const temporary = [];

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A new folder under the system's temporary one, removed when the benchmark exits. */
export function temporaryDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** Starts a child process; keeps the tail of its stderr to explain a failure. */
export function startChild(args, options = {}, command = process.execPath) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  children.add(child);
  child.stderrTail = '';
  child.stderr.on('data', (chunk) => (child.stderrTail = (child.stderrTail + chunk).slice(-4000)));
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  child.exited.then(() => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL when the child has not exited within `graceMs`. */
export async function stopChild(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const exited = await Promise.race([child.exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!exited) child.kill('SIGKILL');
}

/** A script of bench/ that prints one JSON line once listening: its child and that line's members. */
async function startListener(script, args = []) {
  const child = startChild([new URL(script, import.meta.url).pathname, ...args]);
  const line = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { child, ...JSON.parse(line) };
}

/** The loopback chat upstream: its child and what it prints when listening (`url`, `base_url`). */
export function startUpstream() {
  return startListener('./chat-upstream.mjs');
}

/** The bare relay (bench/chat-relay.mjs) in front of `upstream`: its child and its `url`. */
export function startRelay(upstream) {
  return startListener('./chat-relay.mjs', [upstream.base_url]);
}
