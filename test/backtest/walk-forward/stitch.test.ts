// The stitched out-of-sample report: one window stitched alone gives that window's own figures (pnl, equity,
// sharpe, sortino, drawdown, returns), since the joined curve follows the sampler's rule; two windows add
// up their money and counts, and the second window's curve continues from where the first ended.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../../backtest/config.ts';
import type { BacktestReport, BacktestSeries } from '../../../backtest/report/backtest-result.ts';
import { stableStringify } from '../../../backtest/results/stable-json.ts';
import { runBacktest } from '../../../backtest/run-backtest.ts';
import type { TapeWindow } from '../../../backtest/sweep/types.ts';
import { sliceName, writeSlice } from '../../../backtest/walk-forward/slice.ts';
import { stitchOutOfSample, type OutOfSampleSegment } from '../../../backtest/walk-forward/stitch.ts';
import { tempDir } from '../helpers/history-file.ts';

const SAMPLE = 'backtest/data/sample.jsonl';
const at = (hhmm: string) => Date.parse(`2026-11-30T${hhmm}:00.000Z`);
const WINDOWS: TapeWindow[] = [
  { from: at('14:15'), to: at('14:25') },
  { from: at('14:25'), to: at('14:35') },
];

const segments: OutOfSampleSegment[] = [];

beforeAll(async () => {
  const config = loadBacktestConfig('config/backtest.yaml');
  const dir = tempDir();
  for (const [i, window] of WINDOWS.entries()) {
    const file = path.join(dir, sliceName(SAMPLE, window));
    await writeSlice(SAMPLE, window, file);
    const result = await runBacktest({
      data: file,
      // 15 s samples: 40 returns per 10-minute window, enough for sharpe and sortino (ratio-period.ts)
      config: { ...config, backtest: { ...config.backtest, maxSeriesPoints: Number.MAX_SAFE_INTEGER, metricsIntervalMs: 15_000 } },
      strategy: 'market-maker',
      params: { ...config.bot.params, halfSpread: i === 0 ? '0.02' : '0.01' },
    });
    segments.push({
      window: i + 1,
      test: window,
      combo: { halfSpread: i === 0 ? '0.02' : '0.01' },
      run: `windows/0${i + 1}/out-of-sample`,
      // as the walk-forward reads them back: report.json's and series.json's JSON
      report: JSON.parse(stableStringify(result.report)) as BacktestReport,
      series: JSON.parse(stableStringify(result.series)) as BacktestSeries,
    });
  }
}, 60_000);

const FIGURES = [
  'pnl',
  'equity',
  'fees',
  'fills',
  'orders',
  'sharpe',
  'sortino',
  'maxDrawdown',
  'maxDrawdownFraction',
  'returns',
  'events',
];
const pick = (report: BacktestReport) => Object.fromEntries(FIGURES.map((k) => [k, report[k]]));

describe('stitchOutOfSample', () => {
  it("gives one window's own figures when it is the only one", () => {
    for (const segment of segments) {
      const { report } = stitchOutOfSample([segment], { spec: '15m/10m', data: SAMPLE, rankBy: 'sharpe' });
      expect(pick(report)).toEqual(pick(segment.report));
      expect(segment.report['sharpe']).not.toBeNull();
    }
  });

  it('adds up two windows and continues the second curve from the end of the first', () => {
    const [first, second] = segments as [OutOfSampleSegment, OutOfSampleSegment];
    const { report, series } = stitchOutOfSample(segments, { spec: '15m/10m', data: SAMPLE, rankBy: 'sharpe' });
    const pnl = (r: BacktestReport) => Number((r['pnl'] as { total: string }).total);
    expect(Number((report['pnl'] as { total: string }).total)).toBeCloseTo(pnl(first.report) + pnl(second.report), 9);
    expect(report['fills']).toBe(Number(first.report['fills']) + Number(second.report['fills']));
    expect(report['equity']).toEqual({ start: '10000', end: String(10000 + pnl(first.report) + pnl(second.report)) });
    expect(report).toMatchObject({
      kind: 'walk-forward out-of-sample',
      data: { file: 'sample.jsonl', from: '2026-11-30T14:15:00.000Z', to: '2026-11-30T14:35:00.000Z', windows: 2 },
      windows: [
        { window: 1, from: '2026-11-30T14:15:00.000Z', to: '2026-11-30T14:25:00.000Z', params: { halfSpread: '0.02' } },
        { window: 2, params: { halfSpread: '0.01' } },
      ],
    });
    // the second window's own first sample (its start: the first window's end again) is left out
    const firstEquity = first.series.equity;
    const secondEquity = second.series.equity;
    expect(series.equity).toHaveLength(firstEquity.length + secondEquity.length - 1);
    const endOfFirst = Number(firstEquity.at(-1)?.v);
    const lifted = series.equity[firstEquity.length];
    expect(lifted?.t).toBe(secondEquity[1]?.t);
    expect(Number(lifted?.v)).toBeCloseTo(Number(secondEquity[1]?.v) + endOfFirst - 10000, 9);
    const returns = report['returns'] as { count: number };
    expect(returns.count).toBe(
      (first.report['returns'] as { count: number }).count + (second.report['returns'] as { count: number }).count,
    );
  });
});
