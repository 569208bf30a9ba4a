import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Integration tests commit real rows; each file builds its own users, teams and Redis prefix.
    sequence: { concurrent: false },
  },
});
