/**
 * The HTML page of `tradebot report compare`: one self-contained file (no script, no network) with the key
 * figures of the runs side by side, each run's name linking to its report.html, then the params and the
 * config values that differ between them. Every text is escaped.
 */
import path from 'node:path';
import type { Comparison, ComparisonRow } from './compare.ts';
import { escapeHtml } from './escape.ts';

const CSS = `
body{margin:0;background:#f8fafc;color:#0f172a;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 20px 40px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:15px;margin:22px 0 6px}
p.meta{color:#64748b;margin:0 0 12px}
table{border-collapse:collapse;background:#fff;border:1px solid #e2e8f0;font-variant-numeric:tabular-nums}
th,td{padding:5px 12px;border-bottom:1px solid #eef2f7;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left;color:#475569}
thead th{background:#f1f5f9;font-weight:650}
td.same{color:#94a3b8}
`;

function rowHtml(row: ComparisonRow): string {
  // a figure the runs agree on is shown grey, so the differences stand out
  const same = new Set(row.values).size <= 1 ? ' class="same"' : '';
  return `<tr><td>${escapeHtml(row.label)}</td>${row.values.map((v) => `<td${same}>${escapeHtml(v === '' ? '—' : v)}</td>`).join('')}</tr>`;
}

function table(id: string, head: string, rows: readonly ComparisonRow[], empty: string): string {
  if (rows.length === 0) return `<p class="meta" id="${id}">${escapeHtml(empty)}</p>`;
  return `<table id="${id}"><thead>${head}</thead><tbody>${rows.map(rowHtml).join('')}</tbody></table>`;
}

/** The page; `links` are the runs' report.html files, made relative to `file` (where the page is written). */
export function renderComparison(comparison: Comparison, file: string, reports: readonly string[]): string {
  const from = path.dirname(file);
  const heads = comparison.runs.map((name, i) => {
    const report = reports[i];
    const href = report === undefined ? undefined : path.relative(from, report).split(path.sep).map(encodeURIComponent).join('/');
    return `<th>${href === undefined ? escapeHtml(name) : `<a href="${escapeHtml(href)}">${escapeHtml(name)}</a>`}</th>`;
  });
  const head = `<tr><th></th>${heads.join('')}</tr>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Backtest comparison — ${escapeHtml(comparison.runs.join(' vs '))}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>Backtest comparison</h1>
<p class="meta">${escapeHtml(`${comparison.runs.length} runs side by side; grey where they agree`)}</p>
${table('figures', head, comparison.figures, 'no figures')}
<h2>Params that differ</h2>
${table('params', head, comparison.params, 'The runs have the same params.')}
<h2>Config that differs</h2>
${table('config', head, comparison.config, 'The runs have the same backtest config.')}
</main>
</body>
</html>
`;
}
