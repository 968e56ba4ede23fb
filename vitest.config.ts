// Test runner configuration: every suite lives under test/ and mirrors src/. The global setup installs
// Debian's Chromium for the report browser tests and Debian's redis-server for the distributed sweep tests when
// they are missing (see test/setup/chromium.ts and test/setup/redis.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/chromium.ts', 'test/setup/redis.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
