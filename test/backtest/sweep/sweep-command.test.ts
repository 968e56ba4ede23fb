// `tradebot sweep` end to end on worker threads, with the fake job module (hidden --job-module) standing in
// for the backtest: base params from the config (or the strategy's defaults on the data's symbols), grid
// checked against the strategy before any run, progress on stderr, a summary line on stdout, exit 1 when a
// run failed and 2 for a bad grid.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../src/cli/run-cli.ts';
import { captureOutput } from '../../cli/helpers/output.ts';

const FAKE_JOB = path.join(import.meta.dirname, 'fixtures', 'fake-job.ts');

afterEach(() => vi.restoreAllMocks());

function setup(gridYaml: string): { dir: string; args: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-sweep-cli-'));
  writeFileSync(path.join(dir, 'history.jsonl'), '');
  writeFileSync(path.join(dir, 'grid.yaml'), gridYaml);
  const args = [
    'sweep',
    '--strategy',
    'market-maker',
    '--data',
    path.join(dir, 'history.jsonl'),
    '--grid',
    path.join(dir, 'grid.yaml'),
    '--out',
    path.join(dir, 'out'),
    '--workers',
    '2',
    '--job-module',
    FAKE_JOB,
  ];
  return { dir, args };
}

describe('tradebot sweep', () => {
  it('runs the grid over the config params on worker threads and writes the ranking', async () => {
    const { dir, args } = setup('halfSpread: [0.01, 0.04]\nrequoteTicks: [1, 2]\n');
    const io = captureOutput();
    expect(await runCli([...args, '--config', 'config/sim.yaml', '--rank-by', 'pnl.total'])).toBe(0);
    const summary = JSON.parse(io.out().trim()) as {
      event: string;
      runs: number;
      ok: number;
      failed: number;
      workers: number;
      best: { run: string; params: unknown };
    };
    // sim.yaml's quoteQty "5" is the base: pnl.total = (halfSpread*100 - 0.5) * 10.
    expect(summary).toMatchObject({
      event: 'sweep.summary',
      runs: 4,
      ok: 4,
      failed: 0,
      workers: 2,
      best: { run: '003', params: { halfSpread: '0.04', requoteTicks: 1 } },
    });
    expect(io.err()).toContain('sweep: 4 runs on 2 workers');
    const csv = readFileSync(path.join(dir, 'out', 'ranking.csv'), 'utf8').split('\r\n');
    expect(csv[0]?.startsWith('rank,run,status,pnl.total,')).toBe(true);
    expect(csv[1]?.startsWith('1,003,ok,35.00,')).toBe(true);
    const report = JSON.parse(readFileSync(path.join(dir, 'out', 'runs', '001', 'report.json'), 'utf8')) as {
      params: Record<string, unknown>;
    };
    expect(report.params).toMatchObject({
      symbols: ['RAIN-NYC-2026-12-01', 'FED-CUT-2026-12'],
      quoteQty: '5',
      halfSpread: '0.01',
      requoteTicks: 1,
    });
    expect(existsSync(path.join(dir, 'out', 'ranking.html'))).toBe(true);
  });

  it('exits 1 after a failed run, with the failure in the ranking', async () => {
    const { dir, args } = setup('requoteTicks: [0, 1]\n');
    const io = captureOutput();
    expect(await runCli([...args, '--config', 'config/sim.yaml'])).toBe(1);
    expect(io.err()).toContain('FAILED FAKE_RUN_FAILED');
    expect(io.err()).toContain('1 of 2 runs failed');
    expect(io.err()).toContain('[SWEEP_RUNS_FAILED]');
    expect(readFileSync(path.join(dir, 'out', 'ranking.csv'), 'utf8')).toContain(
      '"FAKE_RUN_FAILED: run 001 fails on purpose, ""quoted"", with a comma"',
    );
  });

  it('exits 2 before any run when a grid name is not a param or a combination fails the schema', async () => {
    const { dir, args } = setup('halfSpred: [0.01]\nrequoteTicks: [-1, 1]\n');
    const io = captureOutput();
    expect(await runCli([...args, '--config', 'config/sim.yaml'])).toBe(2);
    expect(io.err()).toContain('halfSpred: not a param of strategy market-maker (its params: symbols, halfSpread');
    expect(io.err()).toContain('strategy.params.requoteTicks');
    expect(io.err()).toContain('[SWEEP_PARAMS_INVALID]');
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
  });

  it("takes the strategy's defaults on the data's symbols when the config is for another strategy, as backtest does", async () => {
    const { dir, args } = setup('halfSpread: [0.01]\n');
    copyFileSync('backtest/data/sample.jsonl', path.join(dir, 'history.jsonl'));
    writeFileSync(path.join(dir, 'other.yaml'), 'bot:\n  strategy: momentum-taker\n  params: { symbols: [X] }\n');
    const io = captureOutput();
    expect(await runCli([...args, '--config', path.join(dir, 'other.yaml')])).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'out', 'runs', '001', 'report.json'), 'utf8')) as {
      params: Record<string, unknown>;
    };
    expect(report.params).toMatchObject({ symbols: ['RAIN-NYC-2026-12-01', 'SNOW-CHI-2026-12-01', 'FED-CUT-2026-12'], halfSpread: '0.01' });
    expect(io.err()).not.toContain('SWEEP_PARAMS_INVALID');
  });

  it('exits 2 when a required param has no base (not in the grid, no default, config for another strategy) or no data file', async () => {
    const { dir } = setup('qty: ["1"]\n');
    copyFileSync('backtest/data/sample.jsonl', path.join(dir, 'history.jsonl'));
    const args = [
      'sweep',
      '--strategy',
      'cross-demo',
      '--data',
      path.join(dir, 'history.jsonl'),
      '--grid',
      path.join(dir, 'grid.yaml'),
      '--out',
      path.join(dir, 'out'),
      '--workers',
      '2',
      '--job-module',
      FAKE_JOB,
    ];
    const io = captureOutput();
    expect(await runCli([...args, '--config', 'config/sim.yaml'])).toBe(2);
    expect(io.err()).toContain('strategy.params.symbol');
    expect(io.err()).toContain('[SWEEP_PARAMS_INVALID]');
    expect(await runCli(args.map((a) => (a.endsWith('history.jsonl') ? `${a}.missing` : a)))).toBe(2);
    expect(io.err()).toContain('--data: no file at');
  });
});
