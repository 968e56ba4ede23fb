/**
 * `tradebot sweep --walk-forward` on this machine over the sample (45 minutes; 15m/10m makes three windows):
 * each window's in-sample sweep and ranking, its best combination run on the following ten minutes, the
 * stitched out-of-sample report.json and report.html, and walk-forward.json/csv/html with the in-sample and
 * out-of-sample metric and their gap per window, each figure checked against the files it comes from. The
 * stitched report and the window table render in headless Chromium without errors or network.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../src/cli/run-cli.ts';
import { captureOutput } from '../../cli/helpers/output.ts';
import { tempDir } from '../helpers/history-file.ts';
import { launchChromium, openFile } from '../report/browser.ts';

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(() => vi.restoreAllMocks());

const read = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

interface WindowJson {
  window: number;
  test: { from: string };
  best: string;
  params: Record<string, unknown>;
  inSample: number;
  outOfSample: number;
  gap: number;
  outOfSamplePnl: string;
}

describe('tradebot sweep --walk-forward', () => {
  it('ranks the grid per training window, runs the best out of sample, and stitches the out-of-sample runs', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'grid.yaml'), 'halfSpread: ["0.01", "0.02"]\n');
    const out = path.join(dir, 'wf');
    const io = captureOutput();
    const code = await runCli([
      'sweep',
      '--strategy',
      'market-maker',
      '--data',
      'backtest/data/sample.jsonl',
      '--grid',
      path.join(dir, 'grid.yaml'),
      '--out',
      out,
      '--walk-forward',
      '15m/10m',
      '--workers',
      '2',
    ]);
    vi.restoreAllMocks();
    expect(code, io.err()).toBe(0);
    const summary = JSON.parse(io.out().trim()) as { gaps: unknown[]; outOfSample: Record<string, unknown> };
    expect(summary).toMatchObject({ event: 'walk-forward.summary', walkForward: '15m/10m', windows: 3, runs: 9, failed: 0, workers: 2 });
    expect(io.err()).toContain('sweep: walk-forward 15m/10m: 3 windows; in sample, 2 combinations each');

    const wf = read<{ windows: WindowJson[] }>(path.join(out, 'walk-forward.json'));
    expect(wf.windows.map((w) => w.test.from)).toEqual([
      '2026-11-30T14:15:00.000Z',
      '2026-11-30T14:25:00.000Z',
      '2026-11-30T14:35:00.000Z',
    ]);
    let pnl = 0;
    for (const w of wf.windows) {
      const windowDir = path.join(out, 'windows', `0${w.window}`);
      // the best of the window's own ranking, with its in-sample metric
      const ranking = readFileSync(path.join(windowDir, 'ranking.csv'), 'utf8').split('\r\n');
      expect(ranking[1]?.startsWith(`1,${w.best},ok,${w.inSample},`)).toBe(true);
      const inSample = read<{ data: { from: string; to: string }; params: object }>(path.join(windowDir, 'runs', w.best, 'report.json'));
      expect(inSample.data.to).toBe(w.test.from);
      // the out-of-sample run: the best params on the ten minutes after the training window
      const oos = read<{ sharpe: string | null; params: object; data: { from: string; file: string }; pnl: { total: string } }>(
        path.join(windowDir, 'out-of-sample', 'report.json'),
      );
      expect(oos.params).toEqual(inSample.params);
      expect(oos.params).toMatchObject(w.params);
      expect(oos.data.from).toBe(w.test.from);
      expect(oos.data.file).toMatch(/^sample\.\d{8}T\d{6}Z-\d{8}T\d{6}Z\.jsonl$/);
      // ranked by the sweep's default, pnl.total (PnL net of fees): 10-minute windows are too short for a sharpe
      expect(oos.sharpe).toBeNull();
      expect(Number(oos.pnl.total)).toBe(w.outOfSample);
      expect(w.gap).toBeCloseTo(w.inSample - w.outOfSample, 6);
      expect(oos.pnl.total).toBe(w.outOfSamplePnl);
      pnl += Number(oos.pnl.total);
    }
    const stitched = read<{ kind: string; pnl: { total: string }; windows: unknown[] }>(path.join(out, 'out-of-sample', 'report.json'));
    expect(stitched.kind).toBe('walk-forward out-of-sample');
    expect(Number(stitched.pnl.total)).toBeCloseTo(pnl, 9);
    expect(summary.outOfSample).toMatchObject({ 'pnl.total': stitched.pnl.total });
    expect(readFileSync(path.join(out, 'walk-forward.csv'), 'utf8').split('\r\n')[0]).toBe(
      'window,train.from,train.to,test.from,test.to,best,params,in-sample pnl.total,out-of-sample pnl.total,gap,' +
        'in-sample pnl,out-of-sample pnl,ranking,report,error',
    );

    if (browser === undefined) throw new Error('no browser (see the beforeAll error)');
    const report = await openFile(browser, path.join(out, 'out-of-sample', 'report.html'));
    expect(await report.page.locator('.figures').innerText()).toContain(stitched.pnl.total);
    expect(await report.page.locator('dl.details').innerText()).toContain(
      'window 3 (2026-11-30T14:35:00.000Z .. 2026-11-30T14:45:00.000Z)',
    );
    expect([report.errors, report.network]).toEqual([[], []]);
    const table = await openFile(browser, path.join(out, 'walk-forward.html'));
    expect(await table.page.locator('#windows tbody tr').count()).toBe(3);
    expect(await table.page.locator('#windows tbody tr a', { hasText: 'out-of-sample report' }).first().getAttribute('href')).toBe(
      'windows/01/out-of-sample/report.html',
    );
    expect([table.errors, table.network]).toEqual([[], []]);
  }, 180_000);

  it('refuses a spec that fits no window of the tape before running anything', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'grid.yaml'), 'halfSpread: ["0.01"]\n');
    const io = captureOutput();
    const args = [
      'sweep',
      '-s',
      'market-maker',
      '-d',
      'backtest/data/sample.jsonl',
      '-g',
      path.join(dir, 'grid.yaml'),
      '-o',
      path.join(dir, 'o'),
    ];
    expect(await runCli([...args, '--walk-forward', '6h/2h'])).toBe(2);
    expect(io.err()).toContain('the tape spans 45m');
    expect(io.err()).toContain('[WALK_FORWARD_NO_WINDOW]');
    expect(await runCli([...args, '--walk-forward', '6h'])).toBe(2);
    expect(io.err()).toContain('[WALK_FORWARD_INVALID]');
  });
});
