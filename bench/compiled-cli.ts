/**
 * The compiled CLI the benchmarks time as a user runs it (an installed package runs dist/, no TypeScript
 * compiler at run time): `npm run build` once per bench process, however many benches ask for it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The compiled CLI's entry, relative to ROOT (what bin/tradebot.js imports when there is no src/). */
export const COMPILED_CLI = 'dist/src/cli/main.js';

let built = false;

/** Builds dist/ with `npm run build` the first time it is called in this process. */
export function ensureCompiledCli(): void {
  if (built) return;
  process.stderr.write('bench: npm run build\n');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}
