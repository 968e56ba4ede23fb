/**
 * `tradebot report compare <dir> <dir> [...]`: the key figures of several backtest runs (folders written by
 * `tradebot backtest` or a sweep's `runs/<id>`) side by side in one table, on the terminal and as an HTML page,
 * with the params and config values that differ between them (backtest/report/compare.ts).
 */
import type { Command } from 'commander';

export interface ReportCompareOptions {
  html: string;
}

export function registerReportCommand(program: Command): void {
  const report = program.command('report').description('Work with backtest results (report.json folders)');
  report
    .command('compare')
    .description('Compare backtest runs side by side: key figures, and the params and config that differ (terminal and HTML)')
    .argument('<dirs...>', 'two or more folders holding a report.json (tradebot backtest --out, or a sweep run)')
    .option('--html <file>', 'where to write the HTML table', 'compare.html')
    .action(async (dirs: string[], options: ReportCompareOptions) =>
      (await import('../actions/report-compare.ts')).reportCompareCommand(dirs, options),
    );
}
