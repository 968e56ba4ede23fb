/**
 * `tradebot report compare`: the key figures of runs side by side with the params and config that differ
 * (compareRuns, the terminal layout, unique column names), and end to end on two real backtests of the sample
 * with different params: the table on stdout, the HTML page with a link to each run's report.html (every text
 * escaped), and a clear error for a folder without a report.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareRuns, formatComparison, runNames } from '../../../backtest/report/compare.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { captureOutput } from '../../cli/helpers/output.ts';
import { tempDir } from '../helpers/history-file.ts';

afterEach(() => vi.restoreAllMocks());

const report = (params: Record<string, unknown>, pnl: string, tradeThrough = 'print') => ({
  strategy: 'mm',
  data: { file: 'day.jsonl', from: '2026-11-30T14:00:00.000Z', to: '2026-11-30T14:45:00.000Z' },
  pnl: { total: pnl, realized: pnl, unrealized: '0' },
  fees: '0',
  sharpe: null,
  returns: { periodMs: 60_000, annualised: false, count: 45 },
  refusals: { RISK_MAX_POSITION: 2, RISK_PRICE_BAND: 1 },
  params,
  config: { tradeThrough, queueAheadModel: { model: 'volume', windowMs: 30000 }, latency: { insertMs: 50 } },
});

describe('compareRuns', () => {
  it('puts the figures side by side and keeps only the params and config that differ', () => {
    const comparison = compareRuns([
      { name: 'a', dir: 'a', report: report({ symbols: ['X'], halfSpread: '0.01', skew: { k: 1 } }, '1.5') },
      { name: 'b', dir: 'b', report: report({ symbols: ['X'], halfSpread: '0.02', skew: { k: 1 }, extra: true }, '-0.25', 'full') },
    ]);
    expect(comparison.runs).toEqual(['a', 'b']);
    const row = (label: string) => comparison.figures.find((f) => f.label === label)?.values;
    expect(row('PnL total')).toEqual(['1.5', '-0.25']);
    expect(row('refusals')).toEqual(['3', '3']);
    expect(row('sharpe')).toEqual(['', '']);
    expect(row('ratios from')).toEqual(['45 returns of 1 min, not annualised', '45 returns of 1 min, not annualised']);
    expect(row('queue ahead')).toEqual(['volume over 30000 ms', 'volume over 30000 ms']);
    expect(comparison.params).toEqual([
      { label: 'extra', values: ['', 'true'] },
      { label: 'halfSpread', values: ['0.01', '0.02'] },
    ]);
    expect(comparison.config).toEqual([{ label: 'tradeThrough', values: ['print', 'full'] }]);
    const text = formatComparison(comparison);
    expect(text).toMatch(/^PnL total +1\.5 +-0\.25$/m);
    expect(text).toMatch(/^sharpe +- +-$/m);
    expect(text).toContain('params that differ:\n');
    expect(text).toMatch(/^halfSpread +0\.01 +0\.02$/m);
  });

  it('names the columns after the folders, unique', () => {
    expect(runNames(['out/a', 'other/a/', 'runs/003'])).toEqual(['a', 'a #2', '003']);
  });
});

describe('tradebot report compare', () => {
  it('compares two backtests of the sample: figures and the params that differ, on the terminal and in HTML', async () => {
    const dir = tempDir();
    const runs: string[] = [];
    for (const [name, halfSpread] of [
      ['tight', '0.01'],
      ['wide <b>', '0.03'],
    ] as const) {
      const params = path.join(dir, `${halfSpread}.yaml`);
      writeFileSync(params, `symbols: [RAIN-NYC-2026-12-01]\nhalfSpread: "${halfSpread}"\nquoteQty: "5"\n`);
      const out = path.join(dir, name);
      const io = captureOutput();
      const code = await runCli([
        'backtest',
        '--strategy',
        'market-maker',
        '--data',
        'backtest/data/sample.jsonl',
        '--params',
        params,
        '--out',
        out,
      ]);
      expect(code, io.err()).toBe(0);
      vi.restoreAllMocks();
      runs.push(out);
    }
    const html = path.join(dir, 'cmp', 'compare.html');
    const io = captureOutput();
    expect(await runCli(['report', 'compare', ...runs, '--html', html]), io.err()).toBe(0);
    const reports = runs.map(
      (r) => JSON.parse(readFileSync(path.join(r, 'report.json'), 'utf8')) as { pnl: { total: string }; fills: number },
    );
    const out = io.out();
    expect(out).toMatch(/^ +tight +wide <b>$/m);
    expect(out).toMatch(new RegExp(`^PnL total +${reports[0]?.pnl.total ?? ''} +${reports[1]?.pnl.total ?? ''}$`, 'm'));
    expect(out).toMatch(new RegExp(`^fills +${String(reports[0]?.fills)} +${String(reports[1]?.fills)}$`, 'm'));
    expect(out).toMatch(/^halfSpread +0\.01 +0\.03$/m);
    expect(out).toContain('config that differs: none (the same backtest config)');
    expect(out).toContain(`html: ${html}`);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<a href="../tight/report.html">tight</a>');
    expect(page).toContain('<a href="../wide%20%3Cb%3E/report.html">wide &lt;b&gt;</a>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('<td>halfSpread</td><td>0.01</td><td>0.03</td>');
  }, 60_000);

  it('refuses a folder without a report.json, naming it and what to give', async () => {
    const dir = tempDir();
    const io = captureOutput();
    const code = await runCli(['report', 'compare', dir, dir, '--html', path.join(dir, 'c.html')]);
    expect(code).toBe(2);
    expect(io.err()).toContain(`${path.join(dir, 'report.json')} cannot be read: give folders written by tradebot backtest --out`);
    expect(io.err()).toContain('REPORT_COMPARE_INPUT');
    expect(existsSync(path.join(dir, 'c.html'))).toBe(false);
  });
});
