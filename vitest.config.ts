// Test runner configuration: every suite lives under test/ and mirrors src/. The global setup installs
// Debian's Chromium for the report browser tests when it is missing (see test/setup/chromium.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/chromium.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
