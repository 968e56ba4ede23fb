// The production runner: a piscina pool of real worker threads that load TypeScript through worker.mjs
// (tsx), run the job module off the main thread, and bring back a failure's stable code.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerRunner, type WorkerRunner } from '../../../backtest/sweep/pool.ts';
import { runSweep } from '../../../backtest/sweep/run-sweep.ts';

const FAKE_JOB = pathToFileURL(path.join(import.meta.dirname, 'fixtures', 'fake-job.ts')).href;

let pool: WorkerRunner | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('createWorkerRunner', () => {
  it('runs jobs on worker threads (TypeScript loaded by tsx), two at a time on two workers', async () => {
    pool = createWorkerRunner({ workers: 2, jobModule: FAKE_JOB });
    const out = mkdtempSync(path.join(tmpdir(), 'tradebot-sweep-pool-'));
    const summary = await runSweep({
      strategy: 'market-maker',
      data: 'history.jsonl',
      grid: { halfSpread: ['0.01', '0.02', '0.03', '0.04'], sleepMs: [300] },
      out,
      runner: pool.run,
      concurrency: 2,
    });
    expect(summary).toMatchObject({ runs: 4, ok: 4, failed: 0 });
    const threads = summary.ranking.map((r) => (r.outcome.ok ? r.outcome.report['threadId'] : undefined));
    expect(threads.every((t) => typeof t === 'number' && t !== threadId)).toBe(true);
    expect(new Set(threads).size).toBe(2);
    expect([...pool.threadIds].sort()).toEqual([...new Set(threads)].sort());
    // The worker wrote the HTML report too (writeHtmlReport inside the thread).
    expect(existsSync(path.join(out, 'runs', '004', 'report.html'))).toBe(true);
  });

  it('brings a failing job back as an error with its code, and the pool keeps serving', async () => {
    pool = createWorkerRunner({ workers: 1, jobModule: FAKE_JOB });
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-sweep-pool-'));
    const job = { run: 1, id: '001', dir, strategy: 's', data: 'd', combo: {}, params: { fail: true } };
    await expect(pool.run(job)).rejects.toMatchObject({
      code: 'FAKE_RUN_FAILED',
      message: 'run 001 fails on purpose, "quoted", with a comma',
    });
    // The reply is report.json's plain JSON: a Decimal crosses the thread boundary as its text.
    await expect(pool.run({ ...job, params: { halfSpread: '0.02' } })).resolves.toMatchObject({ report: { sharpe: 2, exact: '0.1' } });
  });

  it('reports a job module that cannot load as a failed run', async () => {
    pool = createWorkerRunner({
      workers: 1,
      jobModule: pathToFileURL(path.join(import.meta.dirname, 'fixtures', 'no-such-module.ts')).href,
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-sweep-pool-'));
    await expect(pool.run({ run: 1, id: '001', dir, strategy: 's', data: 'd', combo: {}, params: {} })).rejects.toMatchObject({
      code: 'SWEEP_RUN_FAILED',
    });
  });

  it('refuses a worker count below 1', () => {
    expect(() => createWorkerRunner({ workers: 0 })).toThrow(expect.objectContaining({ code: 'SWEEP_INVALID_WORKERS' }));
  });
});
