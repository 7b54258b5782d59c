// The console's build: Preact's JSX through Vite's own transformer (no Babel), the app served
// under /console/ by the server itself, every asset emitted locally.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0, reportCompressedSize: true },
  logLevel: 'warn',
});
