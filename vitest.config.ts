import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ once: tests start the service and the CLI compiled, as `npm start` and `npm run cli` do. Names the
    // run, so that a suite skipped in many files is told once (test/support/prerequisites.ts).
    globalSetup: ['test/support/build-dist.ts', 'test/support/test-run.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start real servers (HTTP, SMTP, DNS, PostgreSQL clients); two cores on CI.
    pool: 'forks',
  },
});
