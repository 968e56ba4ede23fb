// The HTML report in a real browser: it renders every chart offline, with no console or page errors,
// fetches nothing, shows the key figures, and a hostile param stays text; and the report.html of a real
// `tradebot backtest` run over the shipped sample does the same. Leaves a screenshot in the temp dir.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { writeHtmlReport } from '../../../backtest/report/write-report.ts';
import { fixtureResult, HOSTILE_PARAM } from './fixture.ts';
import { launchChromium, openFile, waitForExpression } from './browser.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { captureOutput } from '../../cli/helpers/output.ts';

interface ChartBox {
  id: string;
  canvases: number;
  width: number;
  height: number;
}

// Page-side expressions are strings: the project's TypeScript config has no DOM types.
const READY_OR_FAILED = 'window.__reportReady === true || window.__reportError !== undefined';
const CANVASES_SIZED =
  "[...document.querySelectorAll('.chart')].every((el) => [...el.querySelectorAll('canvas')].some((c) => c.width > 0 && c.height > 0))";
const CHART_BOXES = `[...document.querySelectorAll('.chart')].map((el) => {
  const canvases = [...el.querySelectorAll('canvas')];
  return { id: el.id, canvases: canvases.length, width: Math.max(...canvases.map((c) => c.width)), \
height: Math.max(...canvases.map((c) => c.height)) };
})`;
const VISIBLE_RANGES = 'window.__reportCharts.map((c) => c.timeScale().getVisibleRange())';

interface VisibleRange {
  from: number;
  to: number;
}

let browser: Browser | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(() => vi.restoreAllMocks());

describe('report.html in headless Chromium', () => {
  it('draws equity, drawdown, position and price charts with fill markers, offline and without errors', async () => {
    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-report-'));
    const file = await writeHtmlReport(dir, fixtureResult());
    expect(file).toBe(path.join(dir, 'report.html'));

    const { page, errors, network } = await openFile(browser, file);
    await waitForExpression(page, READY_OR_FAILED, 15_000);
    expect(await page.evaluate<string | undefined>('window.__reportError')).toBeUndefined();
    // Canvases get their size once the chart's resize observer has run.
    await waitForExpression(page, CANVASES_SIZED);
    const boxes = await page.evaluate<ChartBox[]>(CHART_BOXES);
    expect(boxes.map((b) => b.id)).toEqual(['chart-equity', 'chart-drawdown', 'chart-position', 'chart-price-0', 'chart-price-1']);
    for (const box of boxes) {
      expect(box.width, box.id).toBeGreaterThan(100);
      expect(box.height, box.id).toBeGreaterThan(100);
    }
    expect(await page.evaluate<number>('window.__reportCharts.length')).toBe(5);

    const header = await page.locator('.figures').innerText();
    for (const label of [
      'PNL TOTAL',
      'REALIZED',
      'UNREALIZED',
      'FEES',
      'MAX DRAWDOWN',
      'SHARPE',
      'SORTINO',
      'TURNOVER',
      'FILLS',
      'ORDERS',
      'REFUSALS',
      'EVENTS',
    ]) {
      expect(header.toUpperCase()).toContain(label);
    }
    expect(header).toContain('RISK_MAX_POSITION: 4');
    expect(header).toContain('125,000');
    expect(await page.locator('.legend-item').allInnerTexts()).toEqual(['FED-CUT-2026-12', 'RAIN-NYC-2026-12-01']);

    // The hostile param is shown as text and never ran.
    expect(await page.evaluate<boolean | undefined>('window.__pwned')).toBeUndefined();
    expect(await page.locator('dl.details').innerText()).toContain(HOSTILE_PARAM);

    // Zooming one chart zooms the others (time axes in step), still without errors.
    const before = await page.evaluate<VisibleRange[]>(VISIBLE_RANGES);
    await page.locator('#chart-equity').hover();
    await page.mouse.wheel(0, -600);
    await waitForExpression(page, `(${VISIBLE_RANGES})[0].from > ${(before[0]?.from ?? 0) + 60}`);
    await waitForExpression(
      page,
      `(${VISIBLE_RANGES}).every((r, i, all) => Math.abs(r.from - all[0].from) <= 10 && Math.abs(r.to - all[0].to) <= 10)`,
    );

    await page.screenshot({ path: path.join(dir, 'report.png'), fullPage: true });
    expect(network).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows axis titles, the per-symbol and fills tables (sortable, cut with a note), settlements, and whole refusal codes', async () => {
    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-report-tables-'));
    const base = fixtureResult();
    const first = base.series.fills
      .slice(0, 5)
      .map((f, i) => ({ ...f, fee: '0.0001', liquidity: i % 2 === 0 ? 'maker' : 'taker', label: 'q<1>' }));
    const file = await writeHtmlReport(dir, {
      report: {
        ...base.report,
        currency: 'USD',
        refusals: { EXECUTION_SELF_MATCH_CANCEL_FAILED: 12, RISK_MAX_EVENT_POSITION_EXCEEDED_BY_PENDING: 3 },
        bySymbol: {
          'RAIN-NYC-2026-12-01': {
            pnl: { total: '1.25', realized: '1', unrealized: '0.25' },
            fees: '0.5',
            fills: 3,
            orders: 4,
            turnover: '10',
            position: '2',
          },
          'FED-CUT-2026-12': {
            pnl: { total: '-0.5', realized: '-0.5', unrealized: '0' },
            fees: '0',
            fills: 2,
            orders: 2,
            turnover: '4.5',
            position: '0',
          },
        },
        settlements: [
          { symbol: 'FED-CUT-2026-12', time: new Date(Date.UTC(2026, 10, 2, 15, 0, 0)).toISOString(), price: '1', source: 'exchange' },
        ],
      },
      series: { ...base.series, firstFills: first },
    });
    const { page, errors, network } = await openFile(browser, file);
    await waitForExpression(page, READY_OR_FAILED, 15_000);
    expect(await page.evaluate<string | undefined>('window.__reportError')).toBeUndefined();
    // axis titles with units
    const titles = await page.locator('.axis-title').allInnerTexts();
    for (const title of ['equity (USD)', 'drawdown (USD below the peak)', 'position (contracts)', 'price (USD per contract)', 'time (UTC)'])
      expect(titles).toContain(title);
    // refusal codes whole: each line fits its card (wraps instead of being cut off)
    const refusalLines = await page.evaluate<{ text: string; cut: boolean }[]>(
      "[...document.querySelectorAll('.card .details div')].map((d) => ({ text: d.textContent, cut: d.scrollWidth > d.clientWidth + 1 }))",
    );
    expect(refusalLines).toContainEqual({ text: 'EXECUTION_SELF_MATCH_CANCEL_FAILED: 12', cut: false });
    expect(refusalLines).toContainEqual({ text: 'RISK_MAX_EVENT_POSITION_EXCEEDED_BY_PENDING: 3', cut: false });
    // per-symbol table with the totals row
    expect(await page.locator('#symbols tbody tr').count()).toBe(2);
    expect(await page.locator('#symbols tfoot td').first().innerText()).toBe('total');
    const symbolColumn = async () => page.locator('#symbols tbody td:first-child').allInnerTexts();
    expect(await symbolColumn()).toEqual(['FED-CUT-2026-12', 'RAIN-NYC-2026-12-01']);
    await page.locator('#symbols thead th', { hasText: /^PnL total$/ }).click();
    expect(await symbolColumn()).toEqual(['FED-CUT-2026-12', 'RAIN-NYC-2026-12-01']);
    await page.locator('#symbols thead th', { hasText: /^PnL total/ }).click();
    expect(await symbolColumn()).toEqual(['RAIN-NYC-2026-12-01', 'FED-CUT-2026-12']);
    // fills table: the first 5 of the run's fills, with a note that it is cut; labels stay text
    expect(await page.locator('#fills tbody tr').count()).toBe(5);
    expect(await page.locator('#fills-cut').innerText()).toBe(
      `The first 5 of ${base.report.fills as number} fills (time order); fills.csv has them all.`,
    );
    expect(await page.locator('#fills tbody td', { hasText: 'q<1>' }).count()).toBe(5);
    await page.locator('#fills thead th', { hasText: /^qty$/ }).click();
    const qtys = (await page.locator('#fills tbody td:nth-child(5)').allInnerTexts()).map(Number);
    expect(qtys).toEqual([...qtys].sort((a, b) => a - b));
    // the settlement marked on its price chart and on the equity chart
    const marks = await page.evaluate<string[]>(
      "(() => { const d = JSON.parse(document.getElementById('report-data').textContent); " +
        "return [...d.prices.flatMap((p) => p.markers.filter((m) => m.event).map((m) => p.symbol + ': ' + m.text)), " +
        '...d.equityMarkers.map((m) => m.text)]; })()',
    );
    expect(marks).toEqual(['FED-CUT-2026-12: settled 1 (exchange)', 'FED-CUT-2026-12 settled 1 (exchange)']);
    await page.screenshot({ path: path.join(dir, 'report.png'), fullPage: true });
    expect(network).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('renders a run with empty series as "no data" panels, without errors', async () => {
    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-report-empty-'));
    const base = fixtureResult({ points: 3 });
    const file = await writeHtmlReport(dir, {
      report: base.report,
      series: { equity: [], drawdown: [], position: {}, price: {}, fills: [] },
    });
    const { page, errors, network } = await openFile(browser, file);
    await waitForExpression(page, READY_OR_FAILED);
    expect(await page.evaluate<string | undefined>('window.__reportError')).toBeUndefined();
    expect(await page.locator('.chart').count()).toBe(0);
    expect(await page.locator('.empty').count()).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: path.join(dir, 'report.png'), fullPage: true });
    expect(network).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('opens the report.html of a real backtest of the shipped sample: every chart drawn, fills marked, no errors', async () => {
    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const out = mkdtempSync(path.join(tmpdir(), 'tradebot-report-sample-'));
    const io = captureOutput();
    const code = await runCli([
      'backtest',
      '--strategy',
      'market-maker',
      '--data',
      'backtest/data/sample.jsonl',
      '--config',
      'config/backtest.yaml',
      '--out',
      out,
      '--log-level',
      'error',
    ]);
    expect(code, io.err()).toBe(0);
    vi.restoreAllMocks();
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { fills: number; params: { symbols: string[] } };
    expect(report.fills).toBeGreaterThan(0);

    const { page, errors, network } = await openFile(browser, path.join(out, 'report.html'));
    await waitForExpression(page, READY_OR_FAILED, 15_000);
    expect(await page.evaluate<string | undefined>('window.__reportError')).toBeUndefined();
    await waitForExpression(page, CANVASES_SIZED);
    const boxes = await page.evaluate<ChartBox[]>(CHART_BOXES);
    const prices = report.params.symbols.map((_, i) => `chart-price-${i}`);
    expect(boxes.map((b) => b.id)).toEqual(['chart-equity', 'chart-drawdown', 'chart-position', ...prices]);
    for (const box of boxes) {
      expect(box.width, box.id).toBeGreaterThan(100);
      expect(box.height, box.id).toBeGreaterThan(100);
    }
    expect(await page.evaluate<number>('window.__reportCharts.length')).toBe(3 + prices.length);
    expect((await page.locator('.figures').innerText()).toUpperCase()).toContain('FILLS');
    // the fills drawn on the price charts: every fill of the run is in one of the markers
    const marked = await page.evaluate<number>(
      "JSON.parse(document.getElementById('report-data').textContent)" +
        '.prices.reduce((n, p) => n + p.markers.filter((m) => !m.event).reduce((k, m) => k + m.count, 0), 0)',
    );
    expect(marked).toBe(report.fills);
    // the settlement of FED-CUT-2026-12 (from the exchange's data in the sample) marked on its price chart and on the equity
    const settlementMarks = await page.evaluate<string[]>(
      "(() => { const d = JSON.parse(document.getElementById('report-data').textContent); " +
        "return [...d.prices.flatMap((p) => p.markers.filter((m) => m.event).map((m) => p.symbol + ': ' + m.text)), " +
        "...d.equityMarkers.map((m) => 'equity: ' + m.text)]; })()",
    );
    expect(settlementMarks).toEqual(['FED-CUT-2026-12: settled 1 (exchange)', 'equity: FED-CUT-2026-12 settled 1 (exchange)']);
    expect((await page.locator('.legend-item').allInnerTexts()).sort()).toEqual([...report.params.symbols].sort());
    // the per-symbol table and every fill of the run in the fills table (fewer than the table's limit)
    expect(await page.locator('#symbols tbody tr').count()).toBe(report.params.symbols.length);
    expect(await page.locator('#fills tbody tr').count()).toBe(report.fills);
    expect(await page.locator('#fills-cut').count()).toBe(0);
    await page.screenshot({ path: path.join(out, 'report.png'), fullPage: true });
    expect(network).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
