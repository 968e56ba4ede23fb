/**
 * Vitest global setup: makes sure Debian's Chromium is on the machine before the browser tests of the
 * backtest reports run (test/backtest/report, test/backtest/sweep), so `npm ci && npm test` works on a fresh
 * machine with only Node.js and npm. When /usr/bin/chromium is missing and this process runs as root on a
 * machine with apt-get, it installs the `chromium` package (apt-get update first), once, before any test file
 * starts. Otherwise it changes nothing, and the browser tests fail with a message saying how to install it.
 * Nothing is downloaded but Debian's own package (never a browser bundled by a test tool).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM } from '../backtest/report/browser.ts';

const APT_GET = '/usr/bin/apt-get';

export default function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !existsSync(APT_GET)) {
    process.stderr.write(
      `test setup: ${CHROMIUM} is missing and cannot be installed here (needs root and apt-get); the browser tests will fail\n`,
    );
    return;
  }
  process.stderr.write(
    `test setup: ${CHROMIUM} is missing; installing Debian's chromium (apt-get update && apt-get install -y chromium)\n`,
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync(APT_GET, ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env, timeout: 600_000 });
    execFileSync(APT_GET, ['install', '-y', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env, timeout: 900_000 });
  } catch (error) {
    process.stderr.write(`test setup: installing chromium failed (${(error as Error).message}); the browser tests will fail\n`);
  }
}
