/**
 * The contract between `bench/run.ts` and the `bench/*.bench.ts` modules: a bench module's default export
 * is an async function returning one or more `BenchResult`s; the runner prints each as one JSON line.
 */

export interface BenchResult {
  /** Benchmark name (what `npm run bench -- <filter>` matches, with the file name). */
  bench: string;
  unit: string;
  value: number;
  /** What the value is compared with. */
  baseline: string;
  baselineValue: number;
  /** value / baselineValue. */
  ratio: number;
  /** Extra fields (counts, settings) printed after the fixed ones. */
  [extra: string]: unknown;
}

export type BenchFunction = () => Promise<BenchResult | BenchResult[]>;

/** Throws when `r` lacks a required field, naming the module at fault. */
export function checkResult(r: unknown, source: string): BenchResult {
  const o = r as Record<string, unknown> | null;
  const fields: Array<[string, string]> = [
    ['bench', 'string'],
    ['unit', 'string'],
    ['value', 'number'],
    ['baseline', 'string'],
    ['baselineValue', 'number'],
    ['ratio', 'number'],
  ];
  for (const [name, type] of fields) {
    if (o === null || typeof o !== 'object' || typeof o[name] !== type) {
      throw new Error(`${source}: result field "${name}" must be a ${type}`);
    }
  }
  return o as BenchResult;
}
