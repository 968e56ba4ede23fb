/**
 * A queued sweep when its Redis goes away (a real redis-server, a real worker, the real backtest):
 *  - Redis restarted mid-sweep, empty (no persistence): the coordinator reconnects, finds its jobs gone, adds
 *    the unfinished ones again, and the sweep finishes with every run; the worker reconnects on its own;
 *  - Redis stopped mid-sweep for good: the coordinator fails with SWEEP_QUEUE_UNREACHABLE after --queue-timeout,
 *    naming the URL, instead of waiting without end; the runs finished so far stay on disk.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../../src/cli/run-cli.ts';
import { RedisServer } from '../../../helpers/redis-server.ts';
import { captureOutput } from '../../../cli/helpers/output.ts';
import { tempDir } from '../../helpers/history-file.ts';
import { eventsOf, ROOT, startWorker, type CliProcess } from './helpers/cli-process.ts';

const SAMPLE = path.join(ROOT, 'backtest', 'data', 'sample.jsonl');

let redis: RedisServer;
let worker: CliProcess | undefined;
const dir = tempDir();
const grid = path.join(dir, 'grid.yaml');

beforeAll(async () => {
  writeFileSync(grid, 'halfSpread: ["0.01", "0.02", "0.03", "0.04"]\nquoteQty: ["2", "5", "8"]\n');
  redis = await RedisServer.start();
});
afterAll(async () => {
  worker?.child.kill('SIGKILL');
  await redis?.stop();
});
afterEach(() => vi.restoreAllMocks());

const sweepArgs = (out: string, extra: readonly string[]) => [
  'sweep',
  '--strategy',
  'market-maker',
  '--data',
  SAMPLE,
  '--grid',
  grid,
  '--out',
  out,
  '--queue',
  redis.url(),
  ...extra,
];

describe('tradebot sweep --queue when Redis goes away', () => {
  it('survives a Redis restarted empty mid-sweep: the lost jobs are queued again and every run finishes', async () => {
    worker = await startWorker(redis.url(), ['--lock-seconds', '2']);
    const out = path.join(dir, 'restarted');
    const io = captureOutput();
    const sweep = runCli(sweepArgs(out, ['--queue-timeout', '60']));
    await io.waitForErrLine((l) => l.startsWith('sweep: [3/12]'));
    await redis.restart();
    const code = await sweep;
    vi.restoreAllMocks();
    expect(code, io.err()).toBe(0);
    expect(JSON.parse(io.out().trim())).toMatchObject({ event: 'sweep.summary', runs: 12, ok: 12, failed: 0 });
    expect(io.err()).toContain('sweep: Redis connection lost');
    expect(io.err()).toContain('sweep: Redis is back; checking the jobs');
    for (const id of readdirSync(path.join(out, 'runs'))) expect(existsSync(path.join(out, 'runs', id, 'run.json'))).toBe(true);
    const redisEvents = eventsOf(worker, 'worker.redis').map((e) => e['state']);
    expect(redisEvents).toEqual(expect.arrayContaining(['lost', 'back']));
  }, 180_000);

  it('fails with SWEEP_QUEUE_UNREACHABLE after --queue-timeout when Redis stops for good, keeping the finished runs', async () => {
    const out = path.join(dir, 'stopped');
    const io = captureOutput();
    const sweep = runCli(sweepArgs(out, ['--queue-timeout', '2']));
    await io.waitForErrLine((l) => l.startsWith('sweep: [2/12]'));
    await redis.stop();
    const code = await sweep;
    vi.restoreAllMocks();
    expect(code).toBe(1);
    expect(io.err()).toMatch(
      new RegExp(`Redis at redis://127\\.0\\.0\\.1:${redis.port}/0 has not answered for 2 s .*\\[SWEEP_QUEUE_UNREACHABLE\\]`),
    );
    const finished = readdirSync(path.join(out, 'runs')).filter((id) => existsSync(path.join(out, 'runs', id, 'run.json')));
    expect(finished.length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
