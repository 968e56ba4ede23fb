/**
 * The report page's tables, as HTML: per symbol (report.json `bySymbol`, with the run's totals as the last
 * row) and the fills (the run's first fills, time order; a note says when there are more than shown, and that
 * fills.csv has them all). Both are sortable by a click on a column (TABLE_SCRIPT). Every text is escaped.
 */
import type { BacktestReport, FillPoint } from './backtest-result.ts';
import { escapeHtml } from './escape.ts';
import { EXACT, formatNumber } from './figures.ts';
import { readPath } from './read-path.ts';

export interface TableHtml {
  /** The table (or a line saying there is nothing to show). */
  readonly html: string;
  /** Under the title: what the table holds. */
  readonly caption: string;
}

const NUMERIC = /^-?[\d,]+(\.\d+)?$/;

function cells(values: readonly string[], tag: 'td' | 'th' = 'td'): string {
  return values.map((v) => `<${tag}${tag === 'td' && NUMERIC.test(v) ? ' class="num"' : ''}>${escapeHtml(v)}</${tag}>`).join('');
}

function table(id: string, head: readonly string[], rows: readonly (readonly string[])[], foot?: readonly string[]): string {
  const body = rows.map((r) => `<tr>${cells(r)}</tr>`).join('');
  const footer = foot === undefined ? '' : `<tfoot><tr>${cells(foot)}</tr></tfoot>`;
  return `<table class="data sortable" id="${id}"><thead><tr>${cells(head, 'th')}</tr></thead><tbody>${body}</tbody>${footer}</table>`;
}

const str = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const money = (value: unknown): string => formatNumber(str(value) === '' ? null : str(value), EXACT);

export function symbolTable(report: BacktestReport): TableHtml {
  const bySymbol = readPath(report, 'bySymbol');
  if (typeof bySymbol !== 'object' || bySymbol === null || Object.keys(bySymbol).length === 0)
    return {
      html: '<p class="empty">No per-symbol figures in this report.</p>',
      caption: 'PnL, fees, fills, orders and turnover per symbol',
    };
  const head = ['symbol', 'PnL total', 'realized', 'unrealized', 'fees', 'fills', 'orders', 'turnover', 'position'];
  const rows = Object.entries(bySymbol as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([symbol, part]) => [
      symbol,
      money(readPath(part, 'pnl.total')),
      money(readPath(part, 'pnl.realized')),
      money(readPath(part, 'pnl.unrealized')),
      money(readPath(part, 'fees')),
      str(readPath(part, 'fills')),
      str(readPath(part, 'orders')),
      money(readPath(part, 'turnover')),
      str(readPath(part, 'position')),
    ]);
  const total = [
    'total',
    money(readPath(report, 'pnl.total')),
    money(readPath(report, 'pnl.realized')),
    money(readPath(report, 'pnl.unrealized')),
    money(readPath(report, 'fees')),
    str(readPath(report, 'fills')),
    str(readPath(report, 'orders')),
    money(readPath(report, 'turnover')),
    '',
  ];
  const currency = str(readPath(report, 'currency'));
  return {
    html: table('symbols', head, rows, total),
    caption:
      'Per symbol, summed over the accounts; the parts add up to the totals' +
      `${currency === '' ? '' : ` · money in ${currency}`} · click a column to sort`,
  };
}

export function fillsTable(report: BacktestReport, first: readonly FillPoint[]): TableHtml {
  const total = typeof report['fills'] === 'number' ? report['fills'] : first.length;
  if (first.length === 0) return { html: '<p class="empty">No fills in this run.</p>', caption: 'Every fill of the run' };
  const rows = first.map((f) => [
    new Date(f.t).toISOString().replace('T', ' ').replace('Z', ''),
    f.symbol,
    f.side,
    f.price,
    f.qty,
    f.fee ?? '',
    f.liquidity ?? '',
    f.label ?? '',
  ]);
  const cut = total > first.length;
  const note = cut
    ? `The first ${formatNumber(first.length)} of ${formatNumber(total)} fills (time order); fills.csv has them all`
    : `All ${formatNumber(total)} fills (time order; also in fills.csv)`;
  return {
    html:
      (cut ? `<p class="note" id="fills-cut">${escapeHtml(note)}.</p>` : '') +
      table('fills', ['time (UTC)', 'symbol', 'side', 'price', 'qty', 'fee', 'liquidity', 'label'], rows),
    caption: `${note} · click a column to sort`,
  };
}

/** Sorts a `table.sortable` by the clicked column (numbers as numbers, thousands separators ignored); again to reverse. */
export const TABLE_SCRIPT = String.raw`
(function () {
  var NUM = /^-?[\d,]+(\.\d+)?$/;
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    var body = table.tBodies[0];
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.addEventListener('click', function () {
        var asc = !(th.classList.contains('sorted') && th.classList.contains('asc'));
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.classList.remove('sorted', 'asc'); });
        th.classList.add('sorted');
        if (asc) th.classList.add('asc');
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col].textContent, y = b.cells[col].textContent;
          if (x === '' || y === '') return (x === '') - (y === '');
          var d = NUM.test(x) && NUM.test(y) ? Number(x.replace(/,/g, '')) - Number(y.replace(/,/g, '')) : x.localeCompare(y);
          return asc ? d : -d;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
`;
