/**
 * A child Node process timed whole for the one-off benches: wall seconds from spawn to exit, and its own CPU
 * seconds and peak RSS, written by bench/process-usage.mjs preloaded into it. Plus the helpers those benches share.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { ROOT } from './compiled-cli.ts';

const USAGE_PRELOAD = path.join(ROOT, 'bench', 'process-usage.mjs');

export interface ProcessRun {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssMB: number;
}

/** The 1-minute load average, two decimals (the machine is shared: figures under load are not comparable). */
export const load1m = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Runs `node <args>` from the repository root, timed whole; its CPU and peak RSS come from the preload. */
export function timedNode(args: readonly string[], dir: string): ProcessRun {
  const usageFile = path.join(dir, 'usage.json');
  rmSync(usageFile, { force: true });
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--import', USAGE_PRELOAD, ...args], {
    cwd: ROOT,
    env: { ...process.env, TRADEBOT_BENCH_USAGE_FILE: usageFile },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(-800)}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpuSeconds: number; maxRssKB: number };
  return { seconds, cpuSeconds: usage.cpuSeconds, peakRssMB: Math.round(usage.maxRssKB / 1024) };
}

export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}
