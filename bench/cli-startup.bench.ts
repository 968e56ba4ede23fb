/**
 * Bench "cli-startup" (ms): how long `tradebot --help` takes as a user gets it, a whole process from start to
 * exit, the median of RUNS runs. value: the compiled CLI an installed package runs (dist/src/cli/main.js, what
 * bin/tradebot.js imports when there is no src/ beside it), built first by `npm run build` (tools/build.mjs).
 * baseline: Node itself starting and exiting (`node -e 0`) in the same run, the floor no CLI goes under.
 * Extra: sourcesMs, the same command in a clone of the repository (bin/tradebot.js: tsx compiles the
 * sources); eagerMs, every command's work loaded at start from tsc's unbundled modules in dist/, then the CLI:
 * the start-up before commands loaded their modules only when run and before the build was bundled;
 * backtestSampleMs, `tradebot backtest` of the package's 873-trade sample tape (backtest/data/sample.jsonl,
 * the demo market maker, results written to a temporary folder), whole process: what a command that does
 * work costs at least (module loading, config, the tape worker, the replay's first cold runs of each
 * function, the report). Not measured: npx's own start-up (`npx tradebot` adds npm's, 1.5-2 s on the
 * reference machine, whatever the command).
 * The goal: value under 500 ms.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchResult } from './bench-result.ts';
import { ROOT, ensureCompiledCli } from './compiled-cli.ts';

const RUNS = 5;

function medianMs(args: readonly string[]): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(0, 500)}`);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(RUNS / 2)]! * 10) / 10;
}

/** The compiled CLI with every action module imported before the program runs (the eager start-up). */
const EAGER = `const actions = ['run', 'backtest', 'sweep', 'config-check'];
await Promise.all(actions.map((a) => import('./dist/src/cli/actions/' + a + '.js')));
await import('./dist/src/sim/simulator.js');
await import('./dist/src/exchange/familya/index.js');
await import('./dist/src/kyc/index.js');
await import('./dist/backtest/history/fetch-history.js');
process.argv.splice(1, process.argv.length, 'tradebot', '--help');
await import('./dist/src/cli/main.js');`;

export default async function cliStartup(): Promise<BenchResult> {
  ensureCompiledCli();
  const baselineValue = medianMs(['-e', '0']);
  const value = medianMs(['dist/src/cli/main.js', '--help']);
  const sourcesMs = medianMs(['bin/tradebot.js', '--help']);
  const eagerMs = medianMs(['--input-type=module', '-e', EAGER]);
  const out = mkdtempSync(path.join(tmpdir(), 'tradebot-bench-startup-'));
  let backtestSampleMs: number;
  try {
    backtestSampleMs = medianMs([
      'dist/src/cli/main.js',
      'backtest',
      '--data',
      'backtest/data/sample.jsonl',
      '--out',
      out,
      '--log-level',
      'warn',
    ]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return {
    bench: 'cli-startup',
    unit: 'ms',
    value,
    baseline: 'node -e 0 (Node start-up alone)',
    baselineValue,
    ratio: Math.round((value / baselineValue) * 100) / 100,
    runs: RUNS,
    statistic: 'median',
    sourcesMs,
    eagerMs,
    backtestSampleMs,
    goalMs: 500,
  };
}
