// ranking.html in headless Chromium: renders offline without errors, best run highlighted, failed runs
// marked, links to each run's report, a hostile value stays text, and clicking a header re-sorts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { runSweep } from '../../../backtest/sweep/run-sweep.ts';
import { launchChromium, openFile } from '../report/browser.ts';
import { runSweepJob } from './fixtures/fake-job.ts';

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const column = (page: Page, index: number) => page.locator(`#ranking tbody tr td:nth-child(${index + 1})`).allInnerTexts();

describe('ranking.html in headless Chromium', () => {
  it('shows the ranked runs, the failures, and re-sorts by a clicked column', async () => {
    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const out = mkdtempSync(path.join(tmpdir(), 'tradebot-ranking-'));
    const grid = { halfSpread: ['0.01', '0.02', '0.03'], quoteQty: [5, 10], note: ['</script><b>x</b>'], fail: [false, true] };
    const summary = await runSweep({ strategy: 'market-maker', data: 'history.jsonl', grid, out, runner: runSweepJob, concurrency: 2 });
    const { page, errors, network } = await openFile(browser, summary.files.html, { width: 1500, height: 700 });

    expect(await page.locator('#ranking tbody tr').count()).toBe(12);
    expect(await page.locator('#ranking tbody tr.best').count()).toBe(1);
    expect(await page.locator('#ranking tbody tr.failed').count()).toBe(6);
    expect(await page.locator('#ranking tbody tr.best td:nth-child(2)').innerText()).toBe('009');
    const bestLinks = page.locator('#ranking tbody tr.best a');
    expect(await bestLinks.count()).toBe(2);
    expect([await bestLinks.nth(0).getAttribute('href'), await bestLinks.nth(1).getAttribute('href')]).toEqual([
      'runs/009/report.html',
      'runs/009/report.html',
    ]);
    expect(await page.locator('#ranking tbody tr.failed a').count()).toBe(0);
    expect(await page.locator('#ranking b').count()).toBe(0);
    expect(await page.locator('#ranking tbody').innerText()).toContain('</script><b>x</b>');

    const headers = await page.locator('#ranking thead th').allInnerTexts();
    const sharpe = headers.indexOf('sharpe');
    expect((await column(page, sharpe)).slice(0, 6)).toEqual(['2.5', '2', '1.5', '1', '0.5', '0']);
    await page.locator('#ranking thead th', { hasText: /^sharpe$/ }).click();
    expect((await column(page, sharpe)).slice(0, 6)).toEqual(['0', '0.5', '1', '1.5', '2', '2.5']);
    await page.locator('#ranking thead th', { hasText: /^run$/ }).click();
    await page.locator('#ranking thead th', { hasText: /^run$/ }).click();
    expect((await column(page, 1)).slice(0, 3)).toEqual(['012', '011', '010']);
    await page.locator('#ranking thead th', { hasText: /^rank$/ }).click();

    await page.screenshot({ path: path.join(out, 'ranking.png'), fullPage: true });
    expect(network).toEqual([]);
    expect(errors).toEqual([]);
  });
});
