// Compiles src/ into dist/ file by file, as `make build` and `npm run build` do: each TypeScript
// module becomes one ES module with its source map, and the JSON that modules import is copied
// beside them. esbuild only strips the types, in about a second; the type check itself is
// `make typecheck` (tsc over src, tests, benchmarks and scripts), which `make test` runs. The
// sources are written to compile one file at a time (tsc's isolatedModules finds nothing in them).
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const SOURCE = 'src';
const OUT = 'dist';

const files = readdirSync(SOURCE, { recursive: true, encoding: 'utf8' });
const modules = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => join(SOURCE, f));

await build({
  entryPoints: modules,
  outdir: OUT,
  outbase: SOURCE,
  format: 'esm',
  platform: 'node',
  // The oldest Node the package supports (package.json engines): import attributes stay as written.
  target: 'node20.18',
  sourcemap: true,
  logLevel: 'warning',
});
for (const json of files.filter((f) => f.endsWith('.json'))) cpSync(join(SOURCE, json), join(OUT, json));
