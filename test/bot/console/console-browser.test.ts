/**
 * The web console in headless Chromium against a demo run (config/sim.yaml with `bot.control: { port: 0,
 * console: true }`, the embedded exchange): the run announces the console URL (console.ready); without the
 * token the server answers 401; with it the page shows the strategy, both demo symbols' books, the trading
 * state and figures that change while the bot trades; setting the state to reducing through the page (the
 * confirmation accepted) changes the bot's own trading state; the page fetches nothing beyond the bot's
 * loopback server and logs no error; its strategies table stays hidden (the single form's snapshot has no
 * `strategies`). With config/multi-strategy.yaml (#25) the page shows a row per strategy with its own state and
 * figures, and the row's control halts that strategy alone. Every wait is on page or run state, never a fixed sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { silentLogger } from '../../../src/logging/logger.ts';
import { launchChromium, waitForExpression } from '../../backtest/report/browser.ts';
import { startConsoleRun } from './helpers/console-run.ts';

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const text = (selector: string) => `(document.querySelector(${JSON.stringify(selector)})?.textContent ?? '')`;

describe('the web console', () => {
  it('shows a demo run live and sets its trading state; the token is required', { timeout: 120_000 }, async () => {
    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const { url: ready, run, stop } = startConsoleRun('config/sim.yaml', { logger: silentLogger() });
    try {
      const url = await ready;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
      const origin = new URL(url).origin;

      // no token, a wrong token: 401 for the page and the API
      expect((await fetch(`${origin}/`)).status).toBe(401);
      expect((await fetch(`${origin}/console/api/state`)).status).toBe(401);
      expect((await fetch(`${origin}/?token=not-the-token`, { redirect: 'manual' })).status).toBe(401);

      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const errors: string[] = [];
      const outside: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('dialog', (dialog) => void dialog.accept());
      await page.route('**/*', (route) => {
        const requested = route.request().url();
        if (requested.startsWith(origin)) return route.continue();
        outside.push(requested);
        return route.abort();
      });
      await page.goto(url, { waitUntil: 'load' });
      expect(page.url()).toBe(`${origin}/`); // the token left the address bar for the cookie

      await waitForExpression(page, `${text('#strategy')} === 'market-maker'`, 30_000);
      await waitForExpression(page, `${text('#books')}.includes('RAIN-NYC-2026-12-01') && ${text('#books')}.includes('FED-CUT-2026-12')`);
      await waitForExpression(page, `${text('#state')}.startsWith('active')`);
      // the single form: no strategies part in the feed, the strategies table hidden
      expect(await page.evaluate<boolean>("fetch('/console/api/state').then((r) => r.json()).then((s) => 'strategies' in s)")).toBe(false);
      expect(await page.evaluate<boolean>("document.querySelector('#strategies-section').hidden")).toBe(true);
      // live: the bot's orders appear and the snapshot time moves on
      const firstUpdate = Number(await page.evaluate<string>('document.body.dataset.updated'));
      await waitForExpression(page, `Number(${text('#count-orders')}) > 0`, 30_000);
      await waitForExpression(page, `Number(document.body.dataset.updated) > ${firstUpdate}`, 10_000);
      await waitForExpression(page, `${text('#stream-market')}.startsWith('connected')`);
      expect(await page.evaluate<number>("document.querySelectorAll('#equity-chart canvas').length")).toBeGreaterThan(0);

      // flip to reducing through the page
      await page.selectOption('#state-select', 'reducing');
      await page.fill('#state-reason-input', 'browser test');
      await page.click('#set-state');
      await waitForExpression(page, `${text('#state')}.startsWith('reducing')`, 10_000);
      const controlState = (await (await fetch(`${origin}/control/state`)).json()) as { state: string; reason: string };
      expect(controlState).toMatchObject({ state: 'reducing', reason: 'operator (console): browser test' });

      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      stop('test over');
    }
    const summary = await run;
    expect(summary.tradingState).toBe('reducing');
    expect(summary.operatorCommands).toBe(1);
    expect(summary.orders).toBeGreaterThan(0);
  });

  it('with bot.strategies shows each strategy and halts one of them alone from its row', { timeout: 120_000 }, async () => {
    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const { url: ready, run, stop } = startConsoleRun('config/multi-strategy.yaml', { logger: silentLogger(), durationSeconds: 100 });
    try {
      const url = await ready;
      const origin = new URL(url).origin;
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('dialog', (dialog) => void dialog.accept());
      const outside: string[] = [];
      await page.route('**/*', (route) => {
        const requested = route.request().url();
        if (requested.startsWith(origin)) return route.continue();
        outside.push(requested);
        return route.abort();
      });
      await page.goto(url, { waitUntil: 'load' });

      const row = (id: string, cell: string) => text(`#strategies tr[data-strategy="${id}"] .s-${cell}`);
      await waitForExpression(page, "!document.querySelector('#strategies-section').hidden", 30_000);
      await waitForExpression(page, `document.querySelectorAll('#strategies tr').length === 2`);
      expect(await page.evaluate<string>(text('#strategy'))).toBe('mm-rain, momo-fed');
      expect(await page.evaluate<string>(row('mm-rain', 'strategy'))).toBe('market-maker');
      expect(await page.evaluate<string>(row('momo-fed', 'symbols'))).toBe('FED-CUT-2026-12');
      await waitForExpression(page, `Number(${row('mm-rain', 'orders')}) > 0 && Number(${row('momo-fed', 'orders')}) > 0`, 30_000);
      expect(await page.evaluate<string>(row('momo-fed', 'state'))).toMatch(/^active \(operator\)/);
      expect(await page.evaluate<string>(row('mm-rain', 'pnl'))).toMatch(/^-?\d+(\.\d+)?$/);

      // halt momo-fed from its row (the confirmation accepted)
      await page.selectOption('#strategies tr[data-strategy="momo-fed"] .s-select', 'halted');
      await page.fill('#strategies tr[data-strategy="momo-fed"] .s-reason', 'browser test');
      await page.click('#strategies tr[data-strategy="momo-fed"] .s-set');
      await waitForExpression(page, `${row('momo-fed', 'state')}.startsWith('halted (operator)')`, 10_000);
      expect(await page.evaluate<string>(text('#command-result'))).toContain('"strategy":"momo-fed"');
      expect(await page.evaluate<string>(row('mm-rain', 'state'))).toMatch(/^active/);
      expect(await page.evaluate<string>(text('#state'))).not.toMatch(/^halted/);
      const control = async (query: string) =>
        (await (await fetch(`${origin}/control/state${query}`)).json()) as { state: string; reason: string };
      expect(await control('?strategy=momo-fed')).toMatchObject({ state: 'halted', reason: 'operator (console): browser test' });
      expect((await control('?strategy=mm-rain')).state).toBe('active');
      // the row's select keeps the operator's choice across the live updates
      const updated = Number(await page.evaluate<string>('document.body.dataset.updated'));
      await waitForExpression(page, `Number(document.body.dataset.updated) > ${updated}`, 10_000);
      expect(await page.evaluate<string>(`document.querySelector('#strategies tr[data-strategy="momo-fed"] .s-select').value`)).toBe(
        'halted',
      );
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      stop('test over');
    }
    const summary = await run;
    expect(summary.operatorCommands).toBe(1);
    expect(summary.tradingState).not.toBe('halted');
    expect(summary.strategies?.['momo-fed']?.tradingState).toBe('halted');
    expect(summary.strategies?.['mm-rain']?.tradingState).toBe('active');
  });
});
