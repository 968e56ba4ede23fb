/**
 * ranking.html: the sweep's ranked table as one self-contained page (inline styles and a few lines of
 * script to re-sort by any column; no network). The best run is highlighted, failed runs are shown in red
 * with their error, and each ok run links to its own report.html.
 */
import { TABLE_SCRIPT } from '../report/tables.ts';
import { escapeHtml, inlineScript } from '../report/escape.ts';
import { formatNumber } from '../report/figures.ts';
import type { RankingTable } from './ranking.ts';

export interface RankingPage {
  readonly strategy: string;
  readonly data: string;
  readonly rankBy: string;
  readonly ascending: boolean;
  readonly runs: number;
  readonly failed: number;
  /** `halfSpread: 0.01, 0.02 · quoteQty: 5, 10` */
  readonly gridSummary: string;
  readonly table: RankingTable;
}

export const RANKING_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";

export const RANKING_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f8fafc;color:#0f172a;font:13.5px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{padding:22px 20px 40px;max-width:1600px;margin:0 auto}
h1{margin:0;font-size:21px}
h1 span{color:#2563eb}
.meta{margin:4px 0 14px;color:#64748b}
.wrap{overflow-x:auto;background:#fff;border:1px solid #e2e8f0;border-radius:8px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:6px 10px;border-bottom:1px solid #eef2f7;text-align:left;white-space:nowrap}
th{position:sticky;top:0;background:#f1f5f9;font-weight:600;cursor:pointer;user-select:none}
th.sorted::after{content:" ▾"}
th.sorted.asc::after{content:" ▴"}
td.num{text-align:right}
th.metric,td.metric{background:#eff6ff;font-weight:600}
tr.best td{background:#ecfdf5}
tr.best td.metric{background:#d1fae5}
tr.failed td{color:#991b1b;background:#fef2f2}
td.error{white-space:normal;min-width:260px;max-width:520px}
a{color:#2563eb}
`;

const NUMERIC = /^-?\d+(\.\d+)?$/;

function cell(text: string, column: string, metricColumn: string, link: string): string {
  const classes = [
    NUMERIC.test(text) && column !== 'run' ? 'num' : '',
    column === metricColumn ? 'metric' : '',
    column === 'error' ? 'error' : '',
  ].filter((c) => c !== '');
  // The run id links to its report too, so the link is on screen however wide the table is.
  const linked = (column === 'report' || column === 'run') && link !== '';
  // Long decimals are shown to 6 places, the exact value (as in ranking.csv) on hover.
  const long = /^-?\d+\.\d{7,}$/.test(text);
  const shown = long ? formatNumber(text, 6).replace(/,/g, '') : text;
  const body = linked ? `<a href="${escapeHtml(link)}">${escapeHtml(column === 'report' ? 'report' : text)}</a>` : escapeHtml(shown);
  const title = long ? ` title="${escapeHtml(text)}"` : '';
  return `<td${classes.length > 0 ? ` class="${classes.join(' ')}"` : ''}${title}>${body}</td>`;
}

export function renderRankingHtml(page: RankingPage): string {
  const { columns, rows } = page.table;
  const statusAt = columns.indexOf('status');
  const reportAt = columns.indexOf('report');
  const head = columns.map((c) => `<th${c === page.rankBy ? ' class="metric"' : ''}>${escapeHtml(c)}</th>`).join('');
  const body = rows
    .map((row, i) => {
      const failed = row[statusAt] === 'error';
      // A failed row carries its error as a tooltip, since the error column may be scrolled out of view.
      const cls = failed ? ` class="failed" title="${escapeHtml(row[columns.indexOf('error')] ?? '')}"` : i === 0 ? ' class="best"' : '';
      const link = row[reportAt] ?? '';
      return `<tr${cls}>${row.map((text, c) => cell(text, columns[c] ?? '', page.rankBy, link)).join('')}</tr>`;
    })
    .join('\n');
  const order = page.ascending ? 'lowest first' : 'highest first';
  const failed = page.failed === 0 ? 'none failed' : `${page.failed} failed`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${RANKING_CSP}">
<title>Sweep ranking — ${escapeHtml(page.strategy)}</title>
<style>${RANKING_CSS}</style>
</head>
<body>
<main>
<h1>Sweep ranking · <span>${escapeHtml(page.strategy)}</span></h1>
<p class="meta">${escapeHtml(`${page.runs} runs (${failed}) on ${page.data} · ranked by ${page.rankBy}, ${order} · \
grid ${page.gridSummary}`)} · click a column to re-sort</p>
<div class="wrap"><table id="ranking" class="sortable">
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table></div>
</main>
<script>${inlineScript(TABLE_SCRIPT)}</script>
</body>
</html>
`;
}
