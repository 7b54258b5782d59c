/**
 * A first look at the configured file, before llama.cpp reads it: a missing path or a file that
 * is not GGUF at all gets an error that says so, instead of whatever the native loader reports.
 */
import { open } from 'node:fs/promises';
import { LocalLlmError } from './errors.js';

const MAGIC = Buffer.from('GGUF', 'ascii');

export async function checkModelFile(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new LocalLlmError('model_not_found', `model file ${path}: ${why}`, { cause: error });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new LocalLlmError('model_not_found', `model file ${path}: not a regular file`);
    const head = Buffer.alloc(MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < MAGIC.length || !head.equals(MAGIC)) {
      throw new LocalLlmError(
        'model_invalid',
        `model file ${path}: not a GGUF file (it does not start with "GGUF")`,
      );
    }
  } finally {
    await handle.close();
  }
}
