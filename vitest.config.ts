import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that need module state of their own (a module-level pool or cache they assert on),
 * run with a fresh import of src/ each; every other file shares its worker's modules.
 */
const FRESH_MODULES: string[] = [];

/**
 * Test files at once: one more than the cores (at least two cores counted). The files wait on tmux,
 * timers and children more than they use the CPU: at rest on the 2-core machine, 75.0 s of vitest
 * with three against 96.5 s with two. The extra requests a media resume test once saw with three
 * were another file's, through a freed port (docs/development.md, "Tests"), now closed for good.
 */
const WORKERS = Math.max(2, availableParallelism()) + 1;

export default defineConfig({
  test: {
    // One temp root per run, removed at its end; the run fails if anything escaped it.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/worker.ts', 'test/setup/cpu.ts'],
    // Integration tests spawn the built CLI and real servers; give them room on a 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The pool reads isolation from here, not from a project: without this it starts a new
    // process for every file, and the projects' `isolate: false` shares nothing.
    poolOptions: { forks: { isolate: false } },
    // Most suites run the CLI in-process and wait on sockets and timers rather than the CPU:
    // more files at once than vitest's default (cores - 1).
    maxWorkers: WORKERS,
    // As many kept as may run: vitest's default minimum (cores - 1) is 1 here, and then a worker left
    // idle near the end is stopped by the pool's idle timer while vitest stops it too (`recycleWorkers`,
    // non-isolated pool): "Unhandled Rejection: Terminating worker thread", and the run fails.
    minWorkers: WORKERS,
    projects: [
      {
        extends: true,
        // Test files share their worker's module graph instead of importing src/ afresh each:
        // importing was most of the suite's CPU (for 60 files on the 2-core machine: collect
        // 90 s of 114 s isolated, 18 s shared). Safe because no test mocks a module or changes
        // process.env (test/README.md asks the same of new ones).
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: FRESH_MODULES, isolate: false },
      },
      // A project's forks.isolate (inherited from above) outranks its `isolate`: set both.
      { extends: true, test: { name: 'fresh', include: FRESH_MODULES, isolate: true, poolOptions: { forks: { isolate: true } } } },
    ],
  },
});
