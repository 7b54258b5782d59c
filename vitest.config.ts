import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // One file per core, not vitest's cores − 1: most files wait on servers, ffmpeg and Tesseract
    // as much as they compute, and on 2 cores the default ran them one at a time (776 s against
    // 588 s for the whole suite).
    maxWorkers: availableParallelism(),
    // Files share a process's module cache: each file otherwise loads the server, the engines and
    // their dependencies anew, which was a fifth of the suite's CPU. Files keep their own servers
    // and data directories; module state that a file needs fresh it asks for (vi.resetModules).
    isolate: false,
    // Limits against hangs, not timings: a shared machine can run five times slower than a quiet one,
    // and a test that takes 15 s there took 50 s beside another file.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
