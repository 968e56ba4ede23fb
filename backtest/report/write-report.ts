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
import { formatPeriod } from './period.ts';
import { renderReportPage } from './template.ts';

export const REPORT_HTML = 'report.html';

export function renderReport(result: BacktestResult, options: ChartDataOptions = {}): string {
  const charts = chartData(result.series, options);
  // The header shows what report.json holds: values with a toJSON (Decimal) as their JSON text.
  const report = JSON.parse(JSON.stringify(result.report)) as BacktestResult['report'];
  return renderReportPage({
    strategy: strategyName(report),
    period: formatPeriod(charts.span),
    figures: keyFigures(report),
    details: runDetails(report),
    charts,
    library: chartLibrarySource(),
    script: CLIENT_SCRIPT,
  });
}

/** Writes `<dir>/report.html` (creating `dir`) and returns its path. */
export async function writeHtmlReport(dir: string, result: BacktestResult): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, REPORT_HTML);
  await writeFile(file, renderReport(result), 'utf8');
  return file;
}
