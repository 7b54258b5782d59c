import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts test/support/task-server.ts in its own process and waits until it is ready. */
export async function startProcess(
  configFile: string,
  role: 'api' | 'worker' = 'api',
): Promise<ChildProcess> {
  const args = [
    '--import',
    'tsx',
    'test/support/task-server.ts',
    configFile,
    ...(role === 'worker' ? ['worker'] : []),
  ];
  // SWITCHYARD_TEST_* point the tests at their servers; the server would read them as settings.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SWITCHYARD_TEST_')),
  );
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${role} process exited with ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on(
      'line',
      (line) => line === 'ready' && resolve(),
    );
  });
  return child;
}
