/**
 * Writes a backtest's HTML report: `<dir>/report.html`, one self-contained file (charts library, data and
 * styles inlined; no network). `renderReport` builds the page text without touching the disk.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BacktestResult } from './backtest-result.ts';
import { chartData, type ChartDataOptions } from './chart-data.ts';
import { chartLibrarySource } from './chart-library.ts';
import { CLIENT_SCRIPT } from './client-script.ts';
import { keyFigures, runDetails, strategyName } from './figures.ts';
import type { SettlementMark } from './markers.ts';
import { formatPeriod } from './period.ts';
import { readPath } from './read-path.ts';
import { fillsTable, symbolTable, TABLE_SCRIPT } from './tables.ts';
import { renderReportPage } from './template.ts';

export const REPORT_HTML = 'report.html';

export function renderReport(result: BacktestResult, options: ChartDataOptions = {}): string {
  // The header shows what report.json holds: values with a toJSON (Decimal) as their JSON text.
  const report = JSON.parse(JSON.stringify(result.report)) as BacktestResult['report'];
  const charts = chartData(result.series, { settlements: settlementMarks(report), ...options });
  const currency = readPath(report, 'currency');
  return renderReportPage({
    strategy: strategyName(report),
    currency: typeof currency === 'string' ? currency : '',
    symbolTable: symbolTable(report),
    fillsTable: fillsTable(report, result.series.firstFills ?? result.series.fills),
    tableScript: TABLE_SCRIPT,
    period: formatPeriod(charts.span),
    figures: keyFigures(report),
    details: runDetails(report),
    charts,
    library: chartLibrarySource(),
    script: CLIENT_SCRIPT,
  });
}

/** report.json's settlements (`settled 1 (exchange)`) and expiries without one (`expired, not settled`), for the charts. */
export function settlementMarks(report: BacktestResult['report']): SettlementMark[] {
  const list = (path: string) => {
    const value = readPath(report, path);
    return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  };
  const at = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) : Number.NaN);
  return [
    ...list('settlements').map((s) => ({
      symbol: String(s['symbol']),
      t: at(s['time']),
      text: `settled ${String(s['price'])} (${String(s['source'])})`,
      kind: 'settlement' as const,
    })),
    ...list('unsettled').map((u) => ({
      symbol: String(u['symbol']),
      t: at(u['expired']),
      text: 'expired, not settled',
      kind: 'expiry' as const,
    })),
  ];
}

/** Writes `<dir>/report.html` (creating `dir`) and returns its path. */
export async function writeHtmlReport(dir: string, result: BacktestResult): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, REPORT_HTML);
  await writeFile(file, renderReport(result), 'utf8');
  return file;
}
