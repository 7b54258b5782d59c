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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
