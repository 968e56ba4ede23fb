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
  return { id: el.id, canvases: canvases.length, width: Math.max(...canvases.map((c) => c.width)), height: Math.max(...canvases.map((c) => c.height)) };
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
      "JSON.parse(document.getElementById('report-data').textContent).prices.reduce((n, p) => n + p.markers.filter((m) => !m.event).reduce((k, m) => k + m.count, 0), 0)",
    );
    expect(marked).toBe(report.fills);
    // the settlement of FED-CUT-2026-12 (from the exchange's data in the sample) marked on its price chart and on the equity
    const settlementMarks = await page.evaluate<string[]>(
      "(() => { const d = JSON.parse(document.getElementById('report-data').textContent); return [...d.prices.flatMap((p) => p.markers.filter((m) => m.event).map((m) => p.symbol + ': ' + m.text)), ...d.equityMarkers.map((m) => 'equity: ' + m.text)]; })()",
    );
    expect(settlementMarks).toEqual(['FED-CUT-2026-12: settled 1 (exchange)', 'equity: FED-CUT-2026-12 settled 1 (exchange)']);
    expect((await page.locator('.legend-item').allInnerTexts()).sort()).toEqual([...report.params.symbols].sort());
    await page.screenshot({ path: path.join(out, 'report.png'), fullPage: true });
    expect(network).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
