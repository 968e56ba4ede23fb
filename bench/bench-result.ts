/**
 * The contract between `bench/run.ts` and the `bench/*.bench.ts` modules: a bench module's default export
 * is an async function returning one or more `BenchResult`s; the runner prints each as one JSON line.
 * A bench compared with nothing (an absolute measure such as a latency) sets `baseline`, `baselineValue` and
 * `ratio` all to null; the fields are still printed.
 */

export interface BenchResult {
  /** Benchmark name (what `npm run bench -- <filter>` matches, with the file name). */
  bench: string;
  unit: string;
  value: number;
  /** What the value is compared with; null when it is compared with nothing. */
  baseline: string | null;
  /** null exactly when `baseline` is null. */
  baselineValue: number | null;
  /** value / baselineValue; null exactly when `baseline` is null. */
  ratio: number | null;
  /** Extra fields (counts, settings) printed after the fixed ones. */
  [extra: string]: unknown;
}

export type BenchFunction = () => Promise<BenchResult | BenchResult[]>;

/** Throws when `r` lacks a required field, naming the module at fault. */
export function checkResult(r: unknown, source: string): BenchResult {
  const o = r as Record<string, unknown> | null;
  if (o === null || typeof o !== 'object') throw new Error(`${source}: a result must be an object`);
  const withoutBaseline = o['baseline'] === null;
  const fields: Array<[string, string]> = [
    ['bench', 'string'],
    ['unit', 'string'],
    ['value', 'number'],
    ['baseline', withoutBaseline ? 'null' : 'string'],
    ['baselineValue', withoutBaseline ? 'null' : 'number'],
    ['ratio', withoutBaseline ? 'null' : 'number'],
  ];
  for (const [name, type] of fields) {
    const actual = o[name] === null ? 'null' : typeof o[name];
    if (actual !== type) {
      const hint = name !== 'baseline' && withoutBaseline ? ' (baseline is null, so baselineValue and ratio must be null too)' : '';
      throw new Error(`${source}: result field "${name}" must be ${type === 'null' ? 'null' : `a ${type}`}${hint}`);
    }
  }
  return o as BenchResult;
}
