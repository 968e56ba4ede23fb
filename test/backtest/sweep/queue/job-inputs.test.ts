// A queue worker's checks before it runs a job: the tape by path (or by file name under --data-dir) with the
// sha256 the coordinator saw, a plugin by path with its sha256, a strategy name this tradebot has, the payload
// version; each refusal names what the job expects and what the worker has. A job that passes becomes the
// SweepJob a local sweep would run (config text, params, window slice).
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localJob, type WorkerContext } from '../../../../backtest/sweep/queue/job-inputs.ts';
import { PAYLOAD_VERSION, queueJobSchema, type QueueJob } from '../../../../backtest/sweep/queue/payload.ts';
import { SliceCache } from '../../../../backtest/walk-forward/slice-cache.ts';
import { tempDir } from '../../helpers/history-file.ts';

const SAMPLE = path.resolve('backtest/data/sample.jsonl');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const dir = tempDir();
const slices = new SliceCache(path.join(dir, 'slices'));
afterAll(() => slices.close());
const ctx: WorkerContext = { worker: 'box:42', slices, tmp: dir };

function job(extra: Partial<QueueJob> = {}): QueueJob {
  return queueJobSchema.parse({
    v: PAYLOAD_VERSION,
    sweep: 'abc',
    key: 'runs/001',
    run: 1,
    id: '001',
    strategy: { spec: 'market-maker' },
    data: { path: SAMPLE, sha256: sha256(SAMPLE), bytes: readFileSync(SAMPLE).length },
    config: { path: '/coordinator/config/backtest.yaml', text: 'backtest: {}\n' },
    combo: { halfSpread: '0.02' },
    params: { symbols: ['RAIN-NYC-2026-12-01'], halfSpread: '0.02' },
    ...extra,
  });
}

describe('localJob', () => {
  it('turns a job that passes into the SweepJob a local sweep runs, in a folder of its own', async () => {
    const local = await localJob(job(), ctx);
    expect(local.job).toMatchObject({
      run: 1,
      id: '001',
      strategy: 'market-maker',
      data: SAMPLE,
      config: '/coordinator/config/backtest.yaml',
      configText: 'backtest: {}\n',
      params: { halfSpread: '0.02' },
    });
    expect(path.dirname(local.job.dir)).toBe(dir);
  });

  it('reads the tape by its file name under --data-dir, and replays a window from its slice', async () => {
    const copies = path.join(dir, 'copies');
    mkdirSync(copies);
    copyFileSync(SAMPLE, path.join(copies, 'sample.jsonl'));
    const window = { from: Date.parse('2026-11-30T14:15:00.000Z'), to: Date.parse('2026-11-30T14:25:00.000Z') };
    const local = await localJob(job({ data: { ...job().data, path: '/elsewhere/sample.jsonl', window } }), { ...ctx, dataDir: copies });
    expect(path.basename(local.job.data)).toBe('sample.20261130T141500Z-20261130T142500Z.jsonl');
    expect(readFileSync(local.job.data, 'utf8')).toContain('"from":"2026-11-30T14:15:00.000Z"');
    local.release();
  });

  it('refuses a tape with another sha256, naming both files and both hashes', async () => {
    const other = path.join(dir, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'sample.jsonl'), readFileSync(SAMPLE, 'utf8').replace('"0.25"', '"0.26"'));
    const error = await localJob(job(), { ...ctx, dataDir: other }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SWEEP_DATA_MISMATCH' });
    const message = (error as Error).message;
    for (const text of [
      'box:42',
      path.join(other, 'sample.jsonl'),
      sha256(path.join(other, 'sample.jsonl')),
      SAMPLE,
      sha256(SAMPLE),
      `copy the sweep's sample.jsonl into ${other}`,
    ])
      expect(message).toContain(text);
  });

  it('refuses a tape it cannot read, naming the path and how to give it the data', async () => {
    await expect(localJob(job({ data: { ...job().data, path: '/shared/tapes/sample.jsonl' } }), ctx)).rejects.toMatchObject({
      code: 'SWEEP_DATA_UNREADABLE',
      message: expect.stringMatching(
        new RegExp(
          `cannot read the sweep's tape /shared/tapes/sample\\.jsonl \\(sha256 ${sha256(SAMPLE)}\\) ` +
            'at /shared/tapes/sample\\.jsonl: no such file; .*--data-dir',
        ),
      ),
    });
  });

  it('refuses a plugin path it does not have, or has in another version, and a strategy name it does not know', async () => {
    const plugin = path.join(dir, 'my-strategy.ts');
    writeFileSync(plugin, 'export default {};\n');
    const missing = { spec: './my-strategy.ts', file: { path: path.join(dir, 'nope.ts'), sha256: sha256(plugin) } };
    await expect(localJob(job({ strategy: missing }), ctx)).rejects.toMatchObject({
      code: 'SWEEP_PLUGIN_MISSING',
      message: expect.stringContaining(`worker box:42 has no strategy plugin at ${path.join(dir, 'nope.ts')}`),
    });
    const changed = { spec: './my-strategy.ts', file: { path: plugin, sha256: '0'.repeat(64) } };
    await expect(localJob(job({ strategy: changed }), ctx)).rejects.toMatchObject({
      code: 'SWEEP_PLUGIN_MISMATCH',
      message: expect.stringContaining(`(sha256 ${sha256(plugin)}; the sweep's is ${'0'.repeat(64)})`),
    });
    const same = await localJob(job({ strategy: { spec: './my-strategy.ts', file: { path: plugin, sha256: sha256(plugin) } } }), ctx);
    expect(same.job.strategy).toBe(plugin);
    await expect(localJob(job({ strategy: { spec: 'no-such-strategy' } }), ctx)).rejects.toMatchObject({
      code: 'SWEEP_PLUGIN_MISSING',
      message: expect.stringContaining('worker box:42 has no strategy named "no-such-strategy"'),
    });
  });

  it('refuses a job of another payload version', async () => {
    await expect(localJob(job({ v: PAYLOAD_VERSION + 1 }), ctx)).rejects.toMatchObject({ code: 'SWEEP_PAYLOAD_VERSION' });
  });
});
