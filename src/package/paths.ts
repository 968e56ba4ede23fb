/**
 * Where tradebot's own files are, whether it runs from its TypeScript sources (a clone of the repository,
 * through tsx or vitest) or compiled (`dist/`, an installed package): the package root (package.json,
 * proto/, config/, templates/) and the right file for one of its modules (`worker.ts` or `dist/.../worker.js`).
 * Code that builds a path or URL to one of our files at run time goes through here, never a fixed
 * number of `../` from its own module, since the compiled tree sits one folder deeper (dist/src/...) and a
 * bundled build moves code into shared chunks.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'proto'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`tradebot: cannot find the package root (package.json and proto/) above ${start}`);
  }
}

/** The folder holding tradebot's package.json, proto/, config/ and templates/. */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** True when this code runs compiled (dist/, .js files), false from the TypeScript sources. */
export const COMPILED = import.meta.url.endsWith('.js');

/** A file of the package root, e.g. `packageFile('proto')`. */
export function packageFile(...segments: string[]): string {
  return path.join(PACKAGE_ROOT, ...segments);
}

/**
 * The URL of one of tradebot's modules, named by its TypeScript file in the repository
 * (`backtest/sweep/worker.ts`): that file when running from the sources, its compiled `.js` under dist/
 * otherwise. It does not depend on where the calling code sits, so it holds in a bundled build too.
 */
export function packageModule(tsPath: string): URL {
  const file = COMPILED ? path.join(PACKAGE_ROOT, 'dist', tsPath.replace(/\.ts$/, '.js')) : path.join(PACKAGE_ROOT, tsPath);
  return pathToFileURL(file);
}

/** The folder of the built-in strategies: strategies/ from the sources, dist/strategies/ compiled (with a trailing separator). */
export const BUILT_IN_STRATEGIES_DIR = path.join(PACKAGE_ROOT, ...(COMPILED ? ['dist', 'strategies'] : ['strategies'])) + path.sep;
