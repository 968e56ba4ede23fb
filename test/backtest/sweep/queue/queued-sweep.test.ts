/**
 * `tradebot sweep --queue` end to end on a real Redis (Debian's redis-server on a free loopback port) with real
 * `tradebot worker` processes and the real backtest: the demo market maker's 24 combinations over the sample.
 *  - two workers, one SIGKILLed while it runs a job: the job runs again on the other worker (BullMQ's stalled
 *    job check), and every runs/<id>/report.json is byte-identical to the local sweep's;
 *  - a worker whose copy of the tape differs fails its jobs with SWEEP_DATA_MISMATCH naming both files and hashes;
 *  - a coordinator SIGKILLed mid-sweep and started again with the same --out resumes: no run runs twice;
 *  - two sweeps on one Redis at once each collect their own runs;
 *  - a walk-forward on the queue writes the same files (runs, rankings, stitched out-of-sample report.json) as a local one.
 * Every wait is on a process's output or exit, never a fixed sleep.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../../src/cli/run-cli.ts';
import { RedisServer } from '../../../helpers/redis-server.ts';
import { captureOutput } from '../../../cli/helpers/output.ts';
import { tempDir } from '../../helpers/history-file.ts';
import { eventsOf, ROOT, startCli, startWorker, type CliProcess } from './helpers/cli-process.ts';

const SAMPLE = path.join(ROOT, 'backtest', 'data', 'sample.jsonl');
const GRID = 'halfSpread: ["0.01", "0.02", "0.03", "0.04"]\nquoteQty: ["2", "5", "8"]\nrequoteTicks: [1, 2]\n';

let redis: RedisServer;
const dir = tempDir();
const grid = path.join(dir, 'grid.yaml');
const workers: CliProcess[] = [];

beforeAll(async () => {
  writeFileSync(grid, GRID);
  redis = await RedisServer.start();
});
afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await redis?.stop();
});
afterEach(() => vi.restoreAllMocks());

function sweepArgs(out: string, extra: readonly string[] = []): string[] {
  return ['sweep', '--strategy', 'market-maker', '--data', SAMPLE, '--grid', grid, '--out', out, ...extra];
}

/** The local sweep of the same grid, once for the tests that compare with it. */
let local: Promise<string> | undefined;
function localSweep(): Promise<string> {
  local ??= (async () => {
    const out = path.join(dir, 'local');
    const io = captureOutput();
    const code = await runCli(sweepArgs(out, ['--workers', '2']));
    vi.restoreAllMocks();
    expect(code, io.err()).toBe(0);
    return out;
  })();
  return local;
}

function expectSameReports(out: string, reference: string): void {
  const ids = readdirSync(path.join(reference, 'runs')).sort();
  expect(ids).toHaveLength(24);
  expect(readdirSync(path.join(out, 'runs')).sort()).toEqual(ids);
  for (const id of ids) {
    const queued = readFileSync(path.join(out, 'runs', id, 'report.json'));
    expect(queued.equals(readFileSync(path.join(reference, 'runs', id, 'report.json'))), `runs/${id}/report.json`).toBe(true);
  }
  expect(readFileSync(path.join(out, 'ranking.csv'), 'utf8')).toBe(readFileSync(path.join(reference, 'ranking.csv'), 'utf8'));
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('tradebot sweep --queue', () => {
  it('finishes the 24 runs on two workers, one SIGKILLed mid-run, with every report.json byte-identical to the local sweep', async () => {
    const queue = redis.url(1);
    const a = await startWorker(queue, ['--lock-seconds', '2']);
    workers.push(a);
    // A is alone when the jobs arrive, so it takes the first; its first run loads the whole engine on a fresh
    // thread (hundreds of ms), so the SIGKILL at its start lands mid-run
    const killed = a
      .line((l) => l.includes('"state":"started"'))
      .then((line) => {
        a.child.kill('SIGKILL');
        return JSON.parse(line) as { job: string; run: string };
      });
    const io = captureOutput();
    const sweep = runCli(sweepArgs(path.join(dir, 'queued'), ['--queue', queue]));
    const b = await startWorker(queue, ['--lock-seconds', '2']);
    workers.push(b);
    const code = await sweep;
    vi.restoreAllMocks();
    expect(code, io.err()).toBe(0);
    const summary = JSON.parse(io.out().trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(summary).toMatchObject({ event: 'sweep.summary', runs: 24, ok: 24, failed: 0, queue, resumed: false });

    const lost = await killed;
    expect(await a.exit).toMatchObject({ signal: 'SIGKILL' });
    // A died holding the job: never done there, done by B once its lock lapsed
    expect(eventsOf(a, 'worker.job').filter((e) => e['state'] === 'done')).toEqual([]);
    expect(eventsOf(b, 'worker.job').filter((e) => e['state'] === 'done' && e['job'] === lost.job)).toHaveLength(1);
    expect(eventsOf(b, 'worker.job').filter((e) => e['state'] === 'done')).toHaveLength(24);
    expect(io.err()).toMatch(/sweep: \[\d+\/24\] run \d{3} ok pnl\.total=\S+ in \S+ \(.*\) on \S+:\d+, \d running/);

    expectSameReports(path.join(dir, 'queued'), await localSweep());
    b.child.kill('SIGTERM');
    expect(await b.exit).toMatchObject({ code: 0 });
    expect(b.stdout.at(-1)).toContain('"worker.stopped"');
  }, 240_000);

  it('fails the jobs of a worker whose tape has another sha256, naming both files and hashes', async () => {
    const queue = redis.url(2);
    const copies = path.join(dir, 'worker-data');
    mkdirSync(copies);
    const lines = readFileSync(SAMPLE, 'utf8').split('\n');
    writeFileSync(path.join(copies, 'sample.jsonl'), [...lines.slice(0, 100), ...lines.slice(101)].join('\n'));
    const worker = await startWorker(queue, ['--data-dir', copies]);
    workers.push(worker);
    writeFileSync(path.join(dir, 'grid2.yaml'), 'halfSpread: ["0.01", "0.02"]\n');
    const out = path.join(dir, 'mismatch');
    const io = captureOutput();
    const code = await runCli([...sweepArgs(out, ['--queue', queue]).map((a) => (a === grid ? path.join(dir, 'grid2.yaml') : a))]);
    vi.restoreAllMocks();
    expect(code, io.err()).toBe(1);
    expect(io.err()).toContain('[SWEEP_RUNS_FAILED]');
    const error = readFileSync(path.join(out, 'runs', '001', 'error.txt'), 'utf8');
    expect(error).toMatch(/^SWEEP_DATA_MISMATCH: /);
    expect(error).toContain(path.join(copies, 'sample.jsonl'));
    expect(error).toContain(sha256(path.join(copies, 'sample.jsonl')));
    expect(error).toContain(SAMPLE);
    expect(error).toContain(sha256(SAMPLE));
    expect(readFileSync(path.join(out, 'ranking.csv'), 'utf8')).toContain('SWEEP_DATA_MISMATCH');
    expect(eventsOf(worker, 'worker.job').filter((e) => e['state'] === 'failed')).toHaveLength(2);
    worker.child.kill('SIGKILL');
  }, 120_000);

  it('keeps two sweeps on one Redis apart: each collects its own runs, with its own params', async () => {
    const queue = redis.url(5);
    const worker = await startWorker(queue, ['--concurrency', '2']);
    workers.push(worker);
    writeFileSync(path.join(dir, 'grid-a.yaml'), 'halfSpread: ["0.01", "0.02"]\n');
    writeFileSync(path.join(dir, 'grid-b.yaml'), 'quoteQty: ["3", "7"]\n');
    const args = (name: string) =>
      sweepArgs(path.join(dir, `two-${name}`), ['--queue', queue]).map((a) => (a === grid ? path.join(dir, `grid-${name}.yaml`) : a));
    const io = captureOutput();
    const codes = await Promise.all([runCli(args('a')), runCli(args('b'))]);
    vi.restoreAllMocks();
    expect(codes, io.err()).toEqual([0, 0]);
    const params = (name: string, id: string) =>
      (JSON.parse(readFileSync(path.join(dir, `two-${name}`, 'runs', id, 'report.json'), 'utf8')) as { params: Record<string, unknown> })
        .params;
    expect([params('a', '001').halfSpread, params('a', '002').halfSpread, params('a', '002').quoteQty]).toEqual(['0.01', '0.02', '5']);
    expect([params('b', '001').quoteQty, params('b', '002').quoteQty, params('b', '002').halfSpread]).toEqual(['3', '7', '0.01']);
    const sweeps = new Set(eventsOf(worker, 'worker.job').map((e) => e['sweep']));
    expect(sweeps.size).toBe(2);
    worker.child.kill('SIGKILL');
  }, 120_000);

  it('writes the same walk-forward over the queue as on this machine, stitched out-of-sample report.json included', async () => {
    const queue = redis.url(4);
    const worker = await startWorker(queue, ['--concurrency', '2']);
    workers.push(worker);
    const small = path.join(dir, 'grid-wf.yaml');
    writeFileSync(small, 'halfSpread: ["0.01", "0.02"]\n');
    const args = (out: string, extra: readonly string[]) =>
      sweepArgs(out, ['--walk-forward', '15m/15m', ...extra]).map((a) => (a === grid ? small : a));
    const io = captureOutput();
    expect(await runCli(args(path.join(dir, 'wf-local'), ['--workers', '2'])), io.err()).toBe(0);
    expect(await runCli(args(path.join(dir, 'wf-queued'), ['--queue', queue])), io.err()).toBe(0);
    vi.restoreAllMocks();
    const [local, queued] = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(queued).toMatchObject({ event: 'walk-forward.summary', windows: 2, runs: 6, failed: 0, queue });
    expect(queued?.['gaps']).toEqual(local?.['gaps']);
    const files = ['out-of-sample/report.json', 'walk-forward.csv'];
    for (const w of ['01', '02']) {
      files.push(`windows/${w}/out-of-sample/report.json`, `windows/${w}/ranking.csv`);
      for (const id of ['001', '002']) files.push(`windows/${w}/runs/${id}/report.json`);
    }
    for (const file of files) {
      expect(readFileSync(path.join(dir, 'wf-queued', file)).equals(readFileSync(path.join(dir, 'wf-local', file))), file).toBe(true);
    }
    worker.child.kill('SIGKILL');
  }, 240_000);

  it('resumes a coordinator SIGKILLed mid-sweep when it starts again with the same --out, running no run twice', async () => {
    const queue = redis.url(3);
    const worker = await startWorker(queue);
    workers.push(worker);
    const out = path.join(dir, 'resumed');
    const first = startCli(sweepArgs(out, ['--queue', queue]));
    await first.line((l) => l.startsWith('sweep: [6/24]'), 'stderr');
    first.child.kill('SIGKILL');
    expect(await first.exit).toMatchObject({ signal: 'SIGKILL' });

    const io = captureOutput();
    const code = await runCli(sweepArgs(out, ['--queue', queue]));
    vi.restoreAllMocks();
    expect(code, io.err()).toBe(0);
    expect(JSON.parse(io.out().trim())).toMatchObject({ event: 'sweep.summary', runs: 24, ok: 24, resumed: true });
    expect(io.err()).toMatch(/sweep: resuming sweep [0-9a-f]{16}/);
    expect(io.err()).toMatch(/sweep: (\d+) of 24 runs already finished/);
    const started = eventsOf(worker, 'worker.job')
      .filter((e) => e['state'] === 'started')
      .map((e) => e['run']);
    expect(started).toHaveLength(24);
    expect(new Set(started).size).toBe(24);
    expectSameReports(out, await localSweep());
    worker.child.kill('SIGKILL');
  }, 240_000);
});
