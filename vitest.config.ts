import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start real servers (HTTP, SMTP, DNS, PostgreSQL clients); two cores on CI.
    pool: 'forks',
  },
});
