/**
 * A sweep's files beside its runs: ranking.csv and ranking.html (the runs ranked by `rankBy`) and sweep.json
 * (what was swept and every run's status), from the runs' outcomes.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toCsv } from './csv.ts';
import type { Grid } from './grid.ts';
import { renderRankingHtml } from './ranking-html.ts';
import { rankingTable, rankRuns, type RankedRun } from './ranking.ts';
import type { ParamSet, RunOutcome, TapeWindow } from './types.ts';

export interface SweepFilesOptions {
  readonly out: string;
  readonly strategy: string;
  readonly data: string;
  readonly config?: string;
  readonly grid: Grid;
  readonly baseParams?: ParamSet;
  readonly rankBy: string;
  readonly ascending: boolean;
  /** The stretch of `data` the runs replayed (a walk-forward window). */
  readonly window?: TapeWindow;
  /** Extra fields of sweep.json (a queued sweep's id and queue). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface SweepFiles {
  readonly csv: string;
  readonly html: string;
  readonly json: string;
}

function gridSummary(grid: Grid): string {
  return Object.entries(grid)
    .map(([name, values]) => `${name}: ${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`)
    .join(' · ');
}

export async function writeSweepFiles(
  options: SweepFilesOptions,
  outcomes: readonly RunOutcome[],
): Promise<{ ranking: RankedRun[]; files: SweepFiles; failed: number }> {
  const { rankBy, ascending } = options;
  const ranking = rankRuns(outcomes, { rankBy, ascending });
  const table = rankingTable(ranking, Object.keys(options.grid), rankBy);
  const failed = outcomes.filter((o) => !o.ok).length;
  const files = {
    csv: path.join(options.out, 'ranking.csv'),
    html: path.join(options.out, 'ranking.html'),
    json: path.join(options.out, 'sweep.json'),
  };
  await writeFile(files.csv, toCsv(table.columns, table.rows), 'utf8');
  const dataText = options.window === undefined ? options.data : `${options.data} [${windowText(options.window)})`;
  await writeFile(
    files.html,
    renderRankingHtml({
      strategy: options.strategy,
      data: dataText,
      rankBy,
      ascending,
      runs: outcomes.length,
      failed,
      gridSummary: gridSummary(options.grid),
      table,
    }),
    'utf8',
  );
  const sweep = {
    strategy: options.strategy,
    data: options.data,
    ...(options.window === undefined
      ? {}
      : { window: { from: new Date(options.window.from).toISOString(), to: new Date(options.window.to).toISOString() } }),
    config: options.config ?? null,
    grid: options.grid,
    baseParams: options.baseParams ?? {},
    rankBy,
    ascending,
    ...options.extra,
    runs: ranking.map(({ rank, metric, outcome }) => ({
      run: outcome.job.id,
      rank,
      status: outcome.ok ? 'ok' : 'error',
      metric,
      params: outcome.job.params,
      ...(outcome.ok ? {} : { error: outcome.error }),
    })),
  };
  await writeFile(files.json, `${JSON.stringify(sweep, null, 2)}\n`, 'utf8');
  return { ranking, files, failed };
}

function windowText(window: TapeWindow): string {
  return `${new Date(window.from).toISOString()} .. ${new Date(window.to).toISOString()}`;
}
