import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One temp root per run, removed at its end; the run fails if anything escaped it.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/worker.ts'],
    // Integration tests spawn the built CLI and real servers; give them room on a 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most suites run the CLI in-process and wait on sockets and timers rather than the CPU:
    // two files at once even where vitest's default (cores - 1) would allow only one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
