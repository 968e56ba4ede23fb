/**
 * Where tradebot's own files are, whether it runs from its TypeScript sources (a clone of the repository,
 * through tsx or vitest) or compiled (`dist/`, an installed package): the package root (package.json,
 * proto/, config/, templates/) and the right file for a sibling module (`worker.ts` or `worker.js`).
 * Code that builds a path or URL to one of our files at run time goes through here, never a fixed
 * number of `../`, since the compiled tree sits one folder deeper (dist/src/...).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * The URL of a module beside `base` (an `import.meta.url`), named by its TypeScript file (`./worker.ts`):
 * the `.js` file when `base` is compiled JavaScript, the `.ts` file otherwise.
 */
export function siblingModule(relative: string, base: string): URL {
  const compiled = base.endsWith('.js') || base.endsWith('.mjs');
  return new URL(compiled ? relative.replace(/\.ts$/, '.js') : relative, base);
}
