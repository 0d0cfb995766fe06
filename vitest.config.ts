import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests spawn the built CLI and real servers; give them room on a 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
