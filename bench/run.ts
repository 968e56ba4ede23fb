/**
 * Benchmark runner (`npm run bench [-- <filter>]`): imports every `bench/*.bench.ts` module (only those whose
 * file name contains the filter, when one is given), runs their default-exported async functions one after the
 * other, and prints ONE JSON line per result on stdout:
 *   {"bench":…,"unit":…,"value":…,"baseline":…,"baselineValue":…,"ratio":…, ...extra fields}
 * (baseline, baselineValue and ratio are null for a bench compared with nothing).
 * Progress and errors go to stderr, so stdout stays machine-readable. Exit code 1 if any module fails.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkResult } from './bench-result.ts';
import type { BenchFunction, BenchResult } from './bench-result.ts';

const SUFFIX = '.bench.ts';

async function main(): Promise<number> {
  const filter = process.argv[2];
  const dir = dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(SUFFIX))
    .sort();
  let failures = 0;
  let ran = 0;
  for (const file of files) {
    const name = basename(file, SUFFIX);
    if (filter !== undefined && !name.includes(filter)) continue;
    try {
      const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default?: BenchFunction };
      if (typeof mod.default !== 'function') throw new Error('must default-export an async function');
      process.stderr.write(`bench: running ${file}\n`);
      const raw = await mod.default();
      const results: BenchResult[] = (Array.isArray(raw) ? raw : [raw]).map((r) => checkResult(r, file));
      for (const r of results) {
        // The fixed fields first, in the documented order, then the module's extra fields.
        const { bench, unit, value, baseline, baselineValue, ratio, ...extra } = r;
        process.stdout.write(`${JSON.stringify({ bench, unit, value, baseline, baselineValue, ratio, ...extra })}\n`);
      }
      ran++;
    } catch (err) {
      failures++;
      process.stderr.write(`bench: ${file} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
  }
  if (ran === 0 && failures === 0) process.stderr.write(`bench: no ${SUFFIX} module matches ${filter ?? '(none)'}\n`);
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
