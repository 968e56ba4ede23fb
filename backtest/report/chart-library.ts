/**
 * The lightweight-charts standalone bundle (it defines `window.LightweightCharts`), read from the installed
 * package so the report can inline it and needs no network. Read once per process.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const BUNDLE = 'dist/lightweight-charts.standalone.production.js';

let cached: string | undefined;

export function chartLibrarySource(): string {
  if (cached === undefined) {
    const packageJson = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
    cached = readFileSync(path.join(path.dirname(packageJson), BUNDLE), 'utf8');
  }
  return cached;
}
