/**
 * The body of `tradebot report compare` (declared in ../commands/report.ts): reads each folder's report.json,
 * prints the comparison table on stdout and writes the HTML page. A folder without a readable report.json is
 * an error naming it and what to give instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compareRuns, formatComparison, runNames, type ComparedRun } from '../../../backtest/report/compare.ts';
import { renderComparison } from '../../../backtest/report/compare-html.ts';
import { TradebotError } from '../../errors.ts';
import type { ReportCompareOptions } from '../commands/report.ts';

function reportError(message: string): TradebotError {
  return new TradebotError('REPORT_COMPARE_INPUT', message, { kind: 'config' });
}

function readReport(dir: string): Record<string, unknown> {
  const file = path.join(dir, 'report.json');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'is not JSON' : 'cannot be read';
    throw reportError(`${file} ${why}: give folders written by tradebot backtest --out (or a sweep's runs/<id>)`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw reportError(`${file} is not a report.json object`);
  return json as Record<string, unknown>;
}

export async function reportCompareCommand(dirs: readonly string[], options: ReportCompareOptions): Promise<void> {
  if (dirs.length < 2) throw reportError(`report compare needs at least two folders, got ${dirs.length}`);
  const names = runNames(dirs);
  const runs: ComparedRun[] = dirs.map((dir, i) => ({ name: names[i] ?? dir, dir, report: readReport(dir) }));
  const comparison = compareRuns(runs);
  process.stdout.write(formatComparison(comparison));
  const html = path.resolve(options.html);
  await mkdir(path.dirname(html), { recursive: true });
  const reports = dirs.map((dir) => path.resolve(dir, 'report.html'));
  await writeFile(
    html,
    renderComparison(
      comparison,
      html,
      reports.map((r) => (existsSync(r) ? r : path.resolve(r, '..', 'report.json'))),
    ),
    'utf8',
  );
  process.stdout.write(`\nhtml: ${html}\n`);
}
