/**
 * Installs one of Debian's packages for the test setup when the binary it provides is missing: as root, on
 * a machine with apt-get, `apt-get update` then `apt-get install -y <package>`, once, before any test file
 * starts (Chromium for the report browser tests, redis-server for the distributed sweep tests). Otherwise it
 * changes nothing and says so on stderr; the tests that need the binary fail with a message naming the fix.
 * Nothing is downloaded but Debian's own packages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const APT_GET = '/usr/bin/apt-get';

let updated = false;

/** True when `binary` is on the machine (already, or after installing `pkg`). */
export function ensureDebianPackage(binary: string, pkg: string, usedBy: string): boolean {
  if (existsSync(binary)) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !existsSync(APT_GET)) {
    process.stderr.write(`test setup: ${binary} is missing and cannot be installed here (needs root and apt-get); ${usedBy} will fail\n`);
    return false;
  }
  process.stderr.write(`test setup: ${binary} is missing; installing Debian's ${pkg} (apt-get update && apt-get install -y ${pkg})\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    if (!updated) execFileSync(APT_GET, ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env, timeout: 600_000 });
    updated = true;
    execFileSync(APT_GET, ['install', '-y', pkg], { stdio: ['ignore', 'ignore', 'inherit'], env, timeout: 900_000 });
  } catch (error) {
    process.stderr.write(`test setup: installing ${pkg} failed (${(error as Error).message}); ${usedBy} will fail\n`);
  }
  return existsSync(binary);
}
