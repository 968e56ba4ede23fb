/**
 * Vitest global setup: makes sure Debian's Chromium is on the machine before the browser tests of the
 * backtest reports run (test/backtest/report, test/backtest/sweep), so `npm ci && npm test` works on a fresh
 * machine with only Node.js and npm. When /usr/bin/chromium is missing and this process runs as root on a
 * machine with apt-get, it installs the `chromium` package (apt-get update first), once, before any test file
 * starts (apt-package.ts). Otherwise it changes nothing, and the browser tests fail with a message saying how
 * to install it. Nothing is downloaded but Debian's own package (never a browser bundled by a test tool).
 */
import { CHROMIUM } from '../backtest/report/browser.ts';
import { ensureDebianPackage } from './apt-package.ts';

export default function ensureChromium(): void {
  ensureDebianPackage(CHROMIUM, 'chromium', 'the browser tests');
}
