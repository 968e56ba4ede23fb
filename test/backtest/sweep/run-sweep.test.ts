// Sweep orchestration with an in-process fake runner: every combination runs (bounded concurrency), files
// land under the out folder, a failing run is recorded and ranked last without stopping the others.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSweepProgress } from '../../../backtest/sweep/progress.ts';
import { runSweep, type SweepOptions } from '../../../backtest/sweep/run-sweep.ts';
import type { SweepJob, SweepRunner } from '../../../backtest/sweep/types.ts';
import { runSweepJob } from './fixtures/fake-job.ts';

function outDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'tradebot-sweep-'));
}

/** The fake job, with the number of runs in flight tracked. */
function trackingRunner(): { runner: SweepRunner; maxInFlight: () => number; jobs: SweepJob[] } {
  let inFlight = 0;
  let max = 0;
  const jobs: SweepJob[] = [];
  return {
    jobs,
    maxInFlight: () => max,
    async runner(job) {
      jobs.push(job);
      max = Math.max(max, ++inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await runSweepJob(job);
      } finally {
        inFlight--;
      }
    },
  };
}

const GRID = { halfSpread: ['0.01', '0.03', '0.02'], quoteQty: [5, 10] };

function options(out: string, runner: SweepRunner, extra: Partial<SweepOptions> = {}): SweepOptions {
  return {
    strategy: 'market-maker',
    data: 'history.jsonl',
    grid: GRID,
    baseParams: { symbols: ['X'], quoteQty: 1 },
    out,
    runner,
    concurrency: 2,
    ...extra,
  };
}

function readCsv(file: string): string[][] {
  // Test data has no quoted line breaks: split lines, then cells (quoted cells may hold commas).
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)]
        .map((m) => m[1] ?? '')
        .slice(0, -1)
        .map((c) => (c.startsWith('"') ? c.slice(1, -1).replace(/""/g, '"') : c)),
    );
}

describe('runSweep', () => {
  it('runs every combination over the base params with at most `concurrency` in flight, and ranks them', async () => {
    const out = outDir();
    const tracking = trackingRunner();
    const summary = await runSweep(options(out, tracking.runner));
    expect(summary).toMatchObject({ runs: 6, ok: 6, failed: 0 });
    expect(tracking.maxInFlight()).toBe(2);
    const first = tracking.jobs.find((j) => j.run === 1);
    expect(first?.params).toEqual({ symbols: ['X'], quoteQty: 5, halfSpread: '0.01' });
    expect(first?.combo).toEqual({ halfSpread: '0.01', quoteQty: 5 });
    for (const id of ['001', '002', '003', '004', '005', '006']) {
      expect(existsSync(path.join(out, 'runs', id, 'report.json'))).toBe(true);
      expect(existsSync(path.join(out, 'runs', id, 'report.html'))).toBe(true);
    }
    const csv = readCsv(summary.files.csv);
    const header = csv[0] ?? [];
    // ranked by default by PnL net of fees (#22: meaningful for any length of data; sharpe was the default)
    expect(header.slice(0, 4)).toEqual(['rank', 'run', 'status', 'pnl.total']);
    const col = (name: string) => header.indexOf(name);
    // pnl.total = 10 x (halfSpread*100 - quoteQty/10): 0.03/5 best (25.00), 0.01/10 worst (0.00).
    expect(csv.slice(1).map((r) => [r[col('rank')], r[col('param.halfSpread')], r[col('param.quoteQty')], r[col('pnl.total')]])).toEqual([
      ['1', '0.03', '5', '25.00'],
      ['2', '0.03', '10', '20.00'],
      ['3', '0.02', '5', '15.00'],
      ['4', '0.02', '10', '10.00'],
      ['5', '0.01', '5', '5.00'],
      ['6', '0.01', '10', '0.00'],
    ]);
    const sweep = JSON.parse(readFileSync(summary.files.json, 'utf8')) as { runs: { run: string; rank: number }[]; rankBy: string };
    expect(sweep.rankBy).toBe('pnl.total');
    expect(sweep.runs[0]).toMatchObject({ run: '003', rank: 1 });
    expect(readFileSync(summary.files.html, 'utf8')).toContain('href="runs/003/report.html"');
  });

  it('records a failing run (error.txt, last in the ranking, error in the table) and finishes the others', async () => {
    const out = outDir();
    const grid = { halfSpread: ['0.01', '0.02'], fail: [false, true] };
    const summary = await runSweep(options(out, runSweepJob, { grid, rankBy: 'pnl.total' }));
    expect(summary).toMatchObject({ runs: 4, ok: 2, failed: 2 });
    expect(readFileSync(path.join(out, 'runs', '002', 'error.txt'), 'utf8')).toContain('FAKE_RUN_FAILED: run 002 fails on purpose');
    const csv = readCsv(summary.files.csv);
    const header = csv[0] ?? [];
    const rows = csv.slice(1);
    expect(rows.map((r) => r[header.indexOf('status')])).toEqual(['ok', 'ok', 'error', 'error']);
    expect(rows[2]?.[header.indexOf('error')]).toBe('FAKE_RUN_FAILED: run 002 fails on purpose, "quoted", with a comma');
    expect(rows[2]?.[header.indexOf('rank')]).toBe('');
    expect(readFileSync(summary.files.html, 'utf8')).toContain('class="failed"');
  });

  it('catches a runner that throws a plain error, keeping its message', async () => {
    const out = outDir();
    const summary = await runSweep(options(out, () => Promise.reject(new Error('plain failure')), { grid: { a: [1] } }));
    expect(summary.ranking[0]?.outcome).toMatchObject({ ok: false, error: { code: 'SWEEP_RUN_FAILED', message: 'plain failure' } });
  });

  it('refuses an out folder holding an earlier sweep unless told to overwrite', async () => {
    const out = outDir();
    await runSweep(options(out, runSweepJob, { grid: { halfSpread: ['0.01', '0.02'] } }));
    await expect(runSweep(options(out, runSweepJob, { grid: { halfSpread: ['0.05'] } }))).rejects.toMatchObject({
      code: 'SWEEP_OUT_NOT_EMPTY',
    });
    const again = await runSweep(options(out, runSweepJob, { grid: { halfSpread: ['0.05'] }, overwrite: true }));
    expect(again.runs).toBe(1);
    expect(existsSync(path.join(out, 'runs', '002'))).toBe(false);
  });

  it('logs one line per run when stderr is not a terminal', async () => {
    const lines: string[] = [];
    const stream = { write: (chunk: string) => lines.push(chunk) > 0 } as unknown as NodeJS.WritableStream;
    const progress = createSweepProgress({ stream, tty: false, rankBy: 'sharpe' });
    await runSweep(
      options(outDir(), runSweepJob, { grid: { halfSpread: ['0.01', '0.02'], fail: [false, true] }, progress, concurrency: 1 }),
    );
    const text = lines.join('');
    expect(text).toContain('sweep: 4 runs on 1 worker\n');
    expect(text).toMatch(/sweep: \[1\/4\] run 001 ok sharpe=0\.9 in \d+(ms|\.\ds) \(halfSpread=0\.01 fail=false\)\n/);
    expect(text).toContain('sweep: [2/4] run 002 FAILED FAKE_RUN_FAILED: run 002 fails on purpose');
    expect(text).toContain('sweep: done, 2 failed, best sharpe 1.9\n');
  });
});
