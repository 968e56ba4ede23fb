/**
 * Each sweep run writes what `tradebot backtest` writes: report.json byte-identical to a single backtest
 * with the same params (the real backtest job on worker threads, over the shipped sample), run.json with
 * the wall-clock figures and the run's id, and report.html.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../src/cli/run-cli.ts';
import { captureOutput } from '../../cli/helpers/output.ts';
import { tempDir } from '../helpers/history-file.ts';

afterEach(() => vi.restoreAllMocks());

describe('sweep run folders', () => {
  it('hold report.json byte-identical to tradebot backtest with the same params, run.json and report.html', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'grid.yaml'), 'halfSpread: ["0.01", "0.02"]\n');
    const io = captureOutput();
    const sweep = await runCli([
      'sweep',
      '--strategy',
      'market-maker',
      '--data',
      'backtest/data/sample.jsonl',
      '--grid',
      path.join(dir, 'grid.yaml'),
      '--config',
      'config/backtest.yaml',
      '--out',
      path.join(dir, 'sweep'),
      '--workers',
      '2',
    ]);
    expect(sweep, io.err()).toBe(0);
    // config/backtest.yaml's bot.params with the grid's second value
    writeFileSync(
      path.join(dir, 'params.yaml'),
      'symbols: [RAIN-NYC-2026-12-01, FED-CUT-2026-12]\nhalfSpread: "0.02"\nquoteQty: "5"\nmaxInventory: "40"\nskewPerContract: "0.002"\n',
    );
    const single = await runCli([
      'backtest',
      '--strategy',
      'market-maker',
      '--data',
      'backtest/data/sample.jsonl',
      '--params',
      path.join(dir, 'params.yaml'),
      '--config',
      'config/backtest.yaml',
      '--out',
      path.join(dir, 'single'),
    ]);
    expect(single, io.err()).toBe(0);

    const run = path.join(dir, 'sweep', 'runs', '002');
    const swept = readFileSync(path.join(run, 'report.json'));
    expect(JSON.parse(swept.toString('utf8'))).toMatchObject({ params: { halfSpread: '0.02' } });
    expect(swept.equals(readFileSync(path.join(dir, 'single', 'report.json')))).toBe(true);
    const wall = JSON.parse(readFileSync(path.join(run, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(wall).toMatchObject({ command: 'sweep', run: '002', combo: { halfSpread: '0.02' } });
    expect(wall['eventsPerSecondWall']).toBeGreaterThan(0);
    expect(wall['wallSeconds']).toBeGreaterThan(0);
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, 'single', 'run.json'), 'utf8')) as object)).toEqual(
      expect.arrayContaining(['eventsPerSecondWall', 'peakRssMB', 'wallSeconds']),
    );
    for (const id of ['001', '002']) expect(existsSync(path.join(dir, 'sweep', 'runs', id, 'report.html'))).toBe(true);
    // the report.json of run 001 differs (another halfSpread), and is sorted the same way
    const first = readFileSync(path.join(dir, 'sweep', 'runs', '001', 'report.json'), 'utf8');
    expect(first).not.toBe(swept.toString('utf8'));
    expect(Object.keys(JSON.parse(first) as object)).toEqual(Object.keys(JSON.parse(swept.toString('utf8')) as object));
  }, 120_000);
});
