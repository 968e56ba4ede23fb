/**
 * The in-place Decimal methods (src/domain/decimal-words/) follow decimal.js's internals, so decimal.js is
 * pinned: this fails on any installed decimal.js but the exact version package.json names, until the property
 * tests are re-run on the new version and the pin moved.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('decimal.js pin', () => {
  it('the installed decimal.js is the exact version package.json pins', () => {
    const ours = readJson(new URL('../../../package.json', import.meta.url).pathname);
    const pinned = (ours['dependencies'] as Record<string, string> | undefined)?.['decimal.js'];
    const installed = readJson(require.resolve('decimal.js/package.json'))['version'];
    const advice =
      'src/domain/decimal-words/ computes on decimal.js internals: re-run its property tests against the new version ' +
      '(FAST_CHECK_RUNS=20000 npx vitest run test/domain), ' +
      'then set that exact version in package.json (npm install decimal.js@<version> --save-exact)';
    expect(pinned, `package.json must pin decimal.js to an exact version (no range): ${advice}`).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed, `decimal.js ${String(installed)} is installed but package.json pins ${String(pinned)}: ${advice}`).toBe(pinned);
  });
});
