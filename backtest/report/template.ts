/**
 * Renders the self-contained report page: key figures and run details as static HTML (readable even with
 * scripts off), one panel per chart, the chart data as inlined JSON, then the inlined lightweight-charts
 * bundle and the page script. A Content-Security-Policy forbids every network fetch, so a page that renders
 * at all renders offline. Every interpolated text goes through `escapeHtml`, every data blob `inlineJson`.
 */
import type { ChartData, LineData, PriceChart, SymbolLine } from './chart-data.ts';
import { escapeHtml, inlineJson, inlineScript } from './escape.ts';
import type { KeyFigure, RunDetail } from './figures.ts';
import type { TableHtml } from './tables.ts';
import { REPORT_CSS } from './styles.ts';

export interface ReportPage {
  readonly strategy: string;
  /** The account currency (report.json `currency`), for the axis titles; '' when unknown. */
  readonly currency: string;
  readonly symbolTable: TableHtml;
  readonly fillsTable: TableHtml;
  /** The tables' sort script. */
  readonly tableScript: string;
  /** `2026-11-01 09:30:00 → 16:00:00 UTC (6h 30m)`, or empty. */
  readonly period: string;
  readonly figures: readonly KeyFigure[];
  readonly details: readonly RunDetail[];
  readonly charts: ChartData;
  /** The lightweight-charts standalone bundle. */
  readonly library: string;
  readonly script: string;
}

/** Data the page script reads from `#report-data`. */
export interface ClientData {
  readonly equity: LineData;
  readonly equityMarkers: ChartData['equityMarkers'];
  readonly drawdown: LineData;
  readonly positions: readonly SymbolLine[];
  readonly prices: readonly PriceChart[];
  readonly secondsVisible: boolean;
}

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

function card(f: KeyFigure): string {
  const details = f.details.map((d) => `<div title="${escapeHtml(d)}">${escapeHtml(d)}</div>`).join('');
  return (
    `<div class="card ${f.tone}"><div class="label">${escapeHtml(f.label)}</div><div class="value">${escapeHtml(f.value)}</div>` +
    `${details === '' ? '' : `<div class="details">${details}</div>`}</div>`
  );
}

function panel(title: string, caption: string, body: string): string {
  return `<section class="panel"><h2>${escapeHtml(title)}</h2><p class="caption">${escapeHtml(caption)}</p>${body}</section>`;
}

function chartDiv(id: string, height: number, hasData: boolean): string {
  return hasData ? `<div class="chart" id="${id}" style="height:${height}px"></div>` : '<p class="empty">No data in this run.</p>';
}

/** A chart with its axis titles: the value axis (right, with its unit) above it, the time axis below. */
function axes(yTitle: string, chart: string, hasData: boolean): string {
  if (!hasData) return chart;
  return `<div class="axis-title y">${escapeHtml(yTitle)}</div>${chart}<div class="axis-title x">time (UTC)</div>`;
}

/** `USD`, or `money` when the report does not say. */
const unitOf = (currency: string) => (currency === '' ? 'money' : currency);

function pricePanel(p: PriceChart, index: number, currency: string): string {
  const settled = p.markers.some((m) => m.event !== undefined) ? ' · ● settlement (purple) or expiry without one (grey)' : '';
  const caption = `Last trade price · ▲ buys (green, below) · ▼ sells (red, above)${settled} · ${p.fills} fill${p.fills === 1 ? '' : 's'}`;
  const hasData = p.points.length > 0;
  return panel(
    `Price and fills — ${p.symbol}`,
    caption,
    axes(`price (${unitOf(currency)} per contract)`, chartDiv(`chart-price-${index}`, 280, hasData), hasData),
  );
}

function detailRow(d: RunDetail): string {
  const value = escapeHtml(d.value);
  const body = d.folded ? `<details><summary>show</summary>${value}</details>` : value;
  return `<dt>${escapeHtml(d.label)}</dt><dd>${body}</dd>`;
}

export function renderReportPage(page: ReportPage): string {
  const { charts } = page;
  const client: ClientData = {
    equity: charts.equity,
    equityMarkers: charts.equityMarkers,
    drawdown: charts.drawdown,
    positions: charts.positions,
    prices: charts.prices,
    secondsVisible: charts.span === undefined || charts.span.to - charts.span.from < 2 * 3600_000,
  };
  const unit = unitOf(page.currency);
  const positionBody =
    charts.positions.length === 0
      ? '<p class="empty">No positions in this run.</p>'
      : `<div class="legend" id="legend-position"></div>${axes('position (contracts)', chartDiv('chart-position', 200, true), true)}`;
  const prices = charts.prices.map((p, i) => pricePanel(p, i, page.currency)).join('\n');
  const period = page.period === '' ? '' : `<p class="period">${escapeHtml(page.period)}</p>`;
  const hasEquity = charts.equity.points.length > 0;
  const hasDrawdown = charts.drawdown.points.length > 0;
  const equityChart = axes(`equity (${unit})`, chartDiv('chart-equity', 300, hasEquity), hasEquity);
  const drawdownChart = axes(`drawdown (${unit} below the peak)`, chartDiv('chart-drawdown', 170, hasDrawdown), hasDrawdown);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>Backtest report — ${escapeHtml(page.strategy)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<header><h1>Backtest report · <span class="strategy">${escapeHtml(page.strategy)}</span></h1>${period}</header>
<section class="figures">${page.figures.map(card).join('')}</section>
<div id="report-error" class="error" hidden></div>
${panel('Per symbol', page.symbolTable.caption, page.symbolTable.html)}
${panel('Equity', 'Account value over time: green above the starting value, red below; ● settlements', equityChart)}
${panel('Drawdown', 'Distance below the running equity peak', drawdownChart)}
${panel('Position', 'Net contracts held per symbol (long above zero, short below)', positionBody)}
${prices === '' ? panel('Price and fills', 'No price series and no fills in this run.', '') : `<div class="price-grid">${prices}</div>`}
${panel('Fills', page.fillsTable.caption, `<div class="table-scroll">${page.fillsTable.html}</div>`)}
${panel('Run', 'What was run, on which data, with which parameters', `<dl class="details">${page.details.map(detailRow).join('')}</dl>`)}
<footer>Generated by tradebot. Times are UTC. Charts drawn with TradingView Lightweight Charts™ (Apache-2.0), inlined.</footer>
</main>
<script type="application/json" id="report-data">${inlineJson(client)}</script>
<script>${inlineScript(page.library)}</script>
<script>${inlineScript(page.script)}${inlineScript(page.tableScript)}</script>
</body>
</html>
`;
}
