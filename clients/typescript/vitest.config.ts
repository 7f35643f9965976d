import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // The integration suite starts the real service once (clients/testing/start-service.ts).
    hookTimeout: 60_000,
  },
});
