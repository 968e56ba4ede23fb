/**
 * Writes a backtest's output folder: `report.json` (keys sorted, deterministic), `run.json` (wall-clock
 * figures: duration, events per wall second, peak RSS; they change from run to run, so they are kept out
 * of report.json), `equity.csv` (the equity and drawdown series the charts draw: time, equity, drawdown) and,
 * when the report writer is present (backtest/report/write-report.ts), `report.html`. fills.csv and orders.csv
 * are written during the replay (runBacktest's `tablesDir`: results/trade-tables.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageModule } from '../../src/package/paths.ts';
import { formatTimestamp } from '../../src/domain/time.ts';
import type { BacktestResult } from '../run-backtest.ts';
import { toCsv } from '../sweep/csv.ts';
import type { BacktestSeries } from './series.ts';
import { stableStringify } from './stable-json.ts';

export interface WrittenResults {
  readonly reportJson: string;
  readonly runJson: string;
  readonly equityCsv: string;
  readonly reportHtml: string | undefined;
  /** Why report.html was not written, when it was not. */
  readonly htmlSkipped: string | undefined;
}

type HtmlWriter = (dir: string, result: BacktestResult) => Promise<string>;

async function htmlWriter(): Promise<HtmlWriter | string> {
  try {
    const module = (await import(packageModule('backtest/report/write-report.ts').href)) as { writeHtmlReport?: unknown };
    return typeof module.writeHtmlReport === 'function'
      ? (module.writeHtmlReport as HtmlWriter)
      : 'backtest/report/write-report.ts exports no writeHtmlReport';
  } catch (error) {
    return `the HTML report writer is not available (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)})`;
  }
}

export async function writeResults(dir: string, result: BacktestResult, run: Readonly<Record<string, unknown>>): Promise<WrittenResults> {
  await mkdir(dir, { recursive: true });
  const reportJson = path.join(dir, 'report.json');
  const runJson = path.join(dir, 'run.json');
  await writeFile(reportJson, stableStringify(result.report), 'utf8');
  await writeFile(runJson, stableStringify({ ...run, ...result.wall }), 'utf8');
  const equityCsv = path.join(dir, EQUITY_CSV);
  await writeFile(equityCsv, equityTable(result.series), 'utf8');
  const writer = await htmlWriter();
  if (typeof writer === 'string') return { reportJson, runJson, equityCsv, reportHtml: undefined, htmlSkipped: writer };
  return { reportJson, runJson, equityCsv, reportHtml: await writer(dir, result), htmlSkipped: undefined };
}

export const EQUITY_CSV = 'equity.csv';

/** The equity series as CSV: time (ISO UTC), equity, drawdown (equity - running peak, <= 0) at the same times. */
export function equityTable(series: Pick<BacktestSeries, 'equity' | 'drawdown'>): string {
  const drawdown = new Map(series.drawdown.map((p) => [p.t, p.v]));
  return toCsv(
    ['time', 'equity', 'drawdown'],
    series.equity.map((p) => [formatTimestamp(p.t), p.v, drawdown.get(p.t) ?? '']),
  );
}
