// Ranking order (metric direction, missing values, failures last) and the CSV/HTML table it produces.
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../../backtest/sweep/csv.ts';
import { metricValue } from '../../../backtest/sweep/metric.ts';
import { rankingTable, rankRuns } from '../../../backtest/sweep/ranking.ts';
import type { RunOutcome, SweepJob } from '../../../backtest/sweep/types.ts';
import type { Figure } from '../../../backtest/report/backtest-result.ts';
import { fixtureResult } from '../report/fixture.ts';

function job(run: number, combo: Record<string, unknown>): SweepJob {
  const id = String(run).padStart(3, '0');
  return { run, id, dir: `/tmp/x/runs/${id}`, strategy: 's', data: 'd', combo, params: combo };
}

const base = fixtureResult({ points: 3 }).report;
const ok = (run: number, sharpe: Figure, total = '0'): RunOutcome => ({
  job: job(run, { k: run }),
  ok: true,
  report: { ...base, sharpe, pnl: { total, realized: '0', unrealized: '0' } },
  durationMs: 1,
});
const failed = (run: number): RunOutcome => ({
  job: job(run, { k: run }),
  ok: false,
  error: { code: 'X', message: 'boom, "bad"' },
  durationMs: 1,
});

describe('metricValue', () => {
  it('reads dotted paths; decimal strings and numbers count, anything else is no value', () => {
    expect(metricValue({ pnl: { total: '-12.5' } }, 'pnl.total')).toBe(-12.5);
    expect(metricValue({ sharpe: 2 }, 'sharpe')).toBe(2);
    expect(metricValue({ sharpe: null }, 'sharpe')).toBeNull();
    expect(metricValue({ sharpe: 'n/a' }, 'sharpe')).toBeNull();
    expect(metricValue({}, 'pnl.total')).toBeNull();
    expect(metricValue({ a: 1 }, 'toString')).toBeNull();
  });
});

describe('rankRuns', () => {
  const outcomes = [ok(1, 0.5), failed(2), ok(3, 2), ok(4, null), ok(5, 2), ok(6, -1)];

  it('ranks highest first, ties by run, then runs without the metric, then failures unranked', () => {
    const ranked = rankRuns(outcomes, { rankBy: 'sharpe' });
    expect(ranked.map((r) => [r.rank, r.outcome.job.run])).toEqual([
      [1, 3],
      [2, 5],
      [3, 1],
      [4, 6],
      [5, 4],
      [null, 2],
    ]);
  });

  it('ranks lowest first with ascending', () => {
    expect(rankRuns(outcomes, { rankBy: 'sharpe', ascending: true }).map((r) => r.outcome.job.run)).toEqual([6, 1, 3, 5, 4, 2]);
  });

  it('ranks a sortino left null for a run that made money without a losing interval first (+Infinity), and says so in the table', () => {
    const sortinoRun = (run: number, sortino: Figure, total: string, losing: number): RunOutcome => ({
      job: job(run, { k: run }),
      ok: true,
      report: {
        ...base,
        sortino,
        pnl: { total, realized: total, unrealized: '0' },
        returns: { intervalMs: 60000, count: 10, losing, periodsPerYear: '525600' },
      },
      durationMs: 1,
    });
    const runs = [sortinoRun(1, 3, '5', 2), sortinoRun(2, null, '4', 0), sortinoRun(3, null, '0', 0), sortinoRun(4, -1, '-2', 4)];
    expect(rankRuns(runs, { rankBy: 'sortino' }).map((r) => [r.rank, r.outcome.job.run])).toEqual([
      [1, 2],
      [2, 1],
      [3, 4],
      [4, 3],
    ]);
    expect(rankRuns(runs, { rankBy: 'sortino', ascending: true }).map((r) => r.outcome.job.run)).toEqual([4, 1, 2, 3]);
    const table = rankingTable(rankRuns(runs, { rankBy: 'sortino' }), ['k'], 'sortino');
    expect(table.rows.map((row) => row[table.columns.indexOf('sortino')])).toEqual(['Infinity', '3', '-1', '']);
    // too few returns for a ratio (fewer than returns.minimum): no value, not +Infinity
    const fewReport = { ...base, sortino: null, pnl: { total: '4' }, returns: { period: 'interval', count: 10, losing: 0, minimum: 20 } };
    expect(metricValue(fewReport, 'sortino')).toBeNull();
  });

  it('ranks by any dotted field', () => {
    const byPnl = rankRuns([ok(1, 9, '-3'), ok(2, 1, '7.25')], { rankBy: 'pnl.total' });
    expect(byPnl.map((r) => r.outcome.job.run)).toEqual([2, 1]);
  });
});

describe('rankingTable and CSV', () => {
  it('has the metric first, then one column per swept param, the other figures, the error and the report link', () => {
    const table = rankingTable(rankRuns([ok(1, 1.5), failed(2)], { rankBy: 'pnl.total' }), ['k'], 'pnl.total');
    expect(table.columns.slice(0, 6)).toEqual(['rank', 'run', 'status', 'pnl.total', 'param.k', 'pnl.realized']);
    expect(table.columns.filter((c) => c === 'pnl.total')).toHaveLength(1);
    expect(table.columns.slice(-3)).toEqual(['events', 'error', 'report']);
    const [good, bad] = table.rows;
    expect(good?.[table.columns.indexOf('refusals')]).toBe('5');
    expect(good?.at(-1)).toBe('runs/001/report.html');
    expect(bad?.slice(0, 3)).toEqual(['', '002', 'error']);
    expect(bad?.at(-2)).toBe('X: boom, "bad"');
  });

  it('quotes cells with commas, quotes, line breaks or edge spaces (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(toCsv(['a', 'b'], [['1', 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
  });
});
