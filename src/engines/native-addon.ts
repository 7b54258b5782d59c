/**
 * The project's native addons (native/*.c), which `make` builds into dist/native against the
 * running Node's headers. Loaded on first use and kept; a missing addon throws, naming the file.
 * This file lies two folders below the project's root as src/engines and as dist/engines, so
 * one path serves both.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const loaded = new Map<string, unknown>();

export function nativeAddon<T>(name: string): T {
  let addon = loaded.get(name);
  if (addon === undefined) {
    addon = createRequire(import.meta.url)(
      fileURLToPath(new URL(`../../dist/native/${name}.node`, import.meta.url)),
    );
    loaded.set(name, addon);
  }
  return addon as T;
}
