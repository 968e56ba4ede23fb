/**
 * A walk-forward's per-window table beside its windows: walk-forward.json (the windows, each with its
 * training and test spans, the combination its training ranked best, that combination's metric in sample
 * and out of sample and the gap between them, and the stitched result's key figures), walk-forward.csv (one
 * line per window) and walk-forward.html (the same table, linking each window's in-sample ranking and
 * out-of-sample report, and the stitched report). The gap is how much worse the metric did out of sample:
 * in-sample minus out-of-sample when higher ranks first, the other way round with --ascending.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { escapeHtml } from '../report/escape.ts';
import { toCsv } from '../sweep/csv.ts';
import { RANKING_CSP, RANKING_CSS } from '../sweep/ranking-html.ts';
import { jsonMetric } from './stitch.ts';

export interface WindowRow {
  readonly window: number;
  readonly train: { readonly from: string; readonly to: string };
  readonly test: { readonly from: string; readonly to: string };
  /** The best in-sample run's id (in `windows/<nn>/runs/`), or null when every run of the window failed. */
  readonly best: string | null;
  readonly params: Readonly<Record<string, unknown>> | null;
  readonly inSample: number | null;
  readonly outOfSample: number | null;
  readonly gap: number | null;
  readonly inSamplePnl: string | null;
  readonly outOfSamplePnl: string | null;
  /** Paths relative to the out folder. */
  readonly ranking: string;
  readonly report: string | null;
  /** Why the window has no out-of-sample result. */
  readonly error?: string;
}

export interface WalkForwardFilesOptions {
  readonly out: string;
  readonly strategy: string;
  readonly data: string;
  readonly spec: string;
  readonly rankBy: string;
  readonly ascending: boolean;
  readonly stitched: { readonly report: string; readonly figures: Readonly<Record<string, unknown>> } | null;
}

export function gapOf(inSample: number | null, outOfSample: number | null, ascending: boolean): number | null {
  if (inSample === null || outOfSample === null || !Number.isFinite(inSample) || !Number.isFinite(outOfSample)) return null;
  return Number((ascending ? outOfSample - inSample : inSample - outOfSample).toPrecision(12));
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

function columns(rankBy: string): string[] {
  return [
    'window',
    'train.from',
    'train.to',
    'test.from',
    'test.to',
    'best',
    'params',
    `in-sample ${rankBy}`,
    `out-of-sample ${rankBy}`,
    'gap',
    'in-sample pnl',
    'out-of-sample pnl',
    'ranking',
    'report',
    'error',
  ];
}

function cells(row: WindowRow): string[] {
  return [
    String(row.window),
    row.train.from,
    row.train.to,
    row.test.from,
    row.test.to,
    row.best ?? '',
    text(row.params),
    text(row.inSample),
    text(row.outOfSample),
    text(row.gap),
    row.inSamplePnl ?? '',
    row.outOfSamplePnl ?? '',
    row.ranking,
    row.report ?? '',
    row.error ?? '',
  ];
}

function html(options: WalkForwardFilesOptions, rows: readonly WindowRow[]): string {
  const head = columns(options.rankBy)
    .map((c) => `<th>${escapeHtml(c)}</th>`)
    .join('');
  const link = (href: string | null, label: string) =>
    href === null || href === '' ? '' : `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
  const body = rows
    .map((row) => {
      const c = cells(row).map((v) => escapeHtml(v));
      c[12] = link(row.ranking, 'in-sample ranking');
      c[13] = link(row.report, 'out-of-sample report');
      return `<tr${row.error === undefined ? '' : ' class="failed"'}>${c.map((v) => `<td>${v}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const stitched =
    options.stitched === null
      ? 'no window has an out-of-sample result'
      : `${link(options.stitched.report, 'stitched out-of-sample report')}: ${Object.entries(options.stitched.figures)
          .map(([k, v]) => `${escapeHtml(k)} ${escapeHtml(text(v))}`)
          .join(' · ')}`;
  const meta =
    `${options.data} · --walk-forward ${options.spec} · each window's best ${options.rankBy} in sample, ` +
    'then out of sample (gap: how much worse out of sample)';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${RANKING_CSP}">
<title>Walk-forward — ${escapeHtml(options.strategy)}</title>
<style>${RANKING_CSS}</style>
</head>
<body>
<main>
<h1>Walk-forward · <span>${escapeHtml(options.strategy)}</span></h1>
<p class="meta">${escapeHtml(meta)}</p>
<p class="meta">${stitched}</p>
<div class="wrap"><table id="windows">
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table></div>
</main>
</body>
</html>
`;
}

export async function writeWalkForwardFiles(
  options: WalkForwardFilesOptions,
  rows: readonly WindowRow[],
): Promise<{ json: string; csv: string; html: string }> {
  const files = {
    json: path.join(options.out, 'walk-forward.json'),
    csv: path.join(options.out, 'walk-forward.csv'),
    html: path.join(options.out, 'walk-forward.html'),
  };
  const json = {
    strategy: options.strategy,
    data: options.data,
    walkForward: options.spec,
    rankBy: options.rankBy,
    ascending: options.ascending,
    outOfSample: options.stitched,
    windows: rows.map((r) => ({ ...r, inSample: jsonMetric(r.inSample), outOfSample: jsonMetric(r.outOfSample) })),
  };
  await writeFile(files.json, `${JSON.stringify(json, null, 2)}\n`, 'utf8');
  await writeFile(files.csv, toCsv(columns(options.rankBy), rows.map(cells)), 'utf8');
  await writeFile(files.html, html(options, rows), 'utf8');
  return files;
}
