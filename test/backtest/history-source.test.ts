/**
 * `tradebot history fetch` from the embedded exchange through either API family: family A's
 * `/v1/report/trades/search` (an ephemeral API client onboarded, as the live runner does) and the gateway's
 * `search_trades` give the same trades, each in its own naming in full-format files and as the same compact
 * lines, and both replay. The family is chosen per config (`bot.venue`), the `--source` flag overriding it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { captureOutput } from '../cli/helpers/output.ts';
import { tempDir } from './helpers/history-file.ts';

afterEach(() => vi.restoreAllMocks());

const WINDOW = [
  '--symbol',
  'RAIN-NYC-2026-12-01',
  '--from',
  '2026-11-30T14:00:00Z',
  '--to',
  '2026-11-30T14:04:00Z',
  '--page-size',
  '50',
  '--pause-ms',
  '0',
];

interface Fetched {
  readonly source: string;
  readonly trades: number;
  readonly lines: Record<string, unknown>[];
}

async function fetchWith(dir: string, name: string, args: readonly string[]): Promise<Fetched> {
  const out = path.join(dir, `${name}.jsonl`);
  const io = captureOutput();
  const code = await runCli(['history', 'fetch', ...WINDOW, '--out', out, ...args]);
  expect(code, io.err()).toBe(0);
  const summary = JSON.parse(await io.waitForLine((l) => l.includes('history.fetched'))) as { source: string; trades: number };
  vi.restoreAllMocks();
  const lines = readFileSync(out, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines[0]).toMatchObject({ type: 'header', source: summary.source });
  return { source: summary.source, trades: summary.trades, lines };
}

/** Trade id, price and quantity of each trade line, in either naming. */
function tradesOf(f: Fetched): string[] {
  return f.lines.slice(1).map((l) => {
    const t = l['trade'] as Record<string, Record<string, unknown> | string>;
    const aggressor = t['aggressor'] as Record<string, unknown>;
    const px = aggressor['lastPx'] ?? aggressor['last_px'];
    const qty = aggressor['lastShares'] ?? aggressor['last_shares'];
    return `${String(t['id'])} ${String(px)} ${String(qty)}`;
  });
}

describe('history fetch sources against the embedded exchange', () => {
  it('fetches the same trades through family A and the gateway, each replayable', async () => {
    const dir = tempDir();
    const viaA = await fetchWith(dir, 'a', ['--config', 'backtest/data/sample-sim.yaml', '--source', 'familyA', '--format', 'full']);
    const viaGateway = await fetchWith(dir, 'g', ['--config', 'backtest/data/sample-sim.yaml', '--source', 'gateway', '--format', 'full']);
    expect(viaA.source).toBe('familyA');
    expect(viaGateway.source).toBe('gateway');
    expect(viaA.trades).toBeGreaterThan(10);
    expect(tradesOf(viaA)).toEqual(tradesOf(viaGateway));
    // each in its family's naming
    expect(JSON.stringify(viaA.lines[1])).toContain('"lastPx"');
    expect(JSON.stringify(viaGateway.lines[1])).toContain('"last_px"');
    const params = path.join(dir, 'params.yaml');
    writeFileSync(params, 'symbols: [RAIN-NYC-2026-12-01]\n');
    const io = captureOutput();
    for (const file of ['a', 'g']) {
      const code = await runCli([
        'backtest',
        '--data',
        path.join(dir, `${file}.jsonl`),
        '--params',
        params,
        '--out',
        path.join(dir, `out-${file}`),
      ]);
      expect(code, io.err()).toBe(0);
      const report = JSON.parse(readFileSync(path.join(dir, `out-${file}`, 'report.json'), 'utf8')) as { events: number };
      expect(report.events).toBe(viaA.trades);
    }
    // compact lines (the default) do not depend on the family: the same lines either way
    const compactA = await fetchWith(dir, 'ca', ['--config', 'backtest/data/sample-sim.yaml', '--source', 'familyA']);
    const compactGateway = await fetchWith(dir, 'cg', ['--config', 'backtest/data/sample-sim.yaml', '--source', 'gateway']);
    expect(compactA.lines[0]).toMatchObject({ format: 'compact', source: 'familyA' });
    expect(compactGateway.lines[0]).toMatchObject({ format: 'compact', source: 'gateway' });
    expect(compactA.lines.slice(1)).toEqual(compactGateway.lines.slice(1));
    expect(compactA.lines.slice(1).map((l) => `${String(l['id'])} ${String(l['price'])} ${String(l['qty'])}`)).toEqual(
      tradesOf(viaA).map((t) => {
        const [id, px, qty] = t.split(' ');
        return `${id} ${new Decimal(px as string).div(100).toFixed()} ${qty}`; // RAIN-NYC's price scale is 100
      }),
    );
  }, 180_000);

  it("records in the header how a contract expiring in the window settled, from each family's market data", async () => {
    const dir = tempDir();
    const window = ['--symbol', 'FED-CUT-2026-12', '--from', '2026-11-30T14:20:00Z', '--to', '2026-11-30T14:30:00Z', '--pause-ms', '0'];
    const settlementsVia = async (source: string) => {
      const out = path.join(dir, `${source}.jsonl`);
      const io = captureOutput();
      const code = await runCli([
        'history',
        'fetch',
        ...window,
        '--config',
        'backtest/data/sample-sim.yaml',
        '--source',
        source,
        '--out',
        out,
      ]);
      expect(code, io.err()).toBe(0);
      vi.restoreAllMocks();
      return (JSON.parse(readFileSync(out, 'utf8').split('\n')[0] as string) as { settlements?: unknown }).settlements;
    };
    const expected = [{ symbol: 'FED-CUT-2026-12', state: 'INSTRUMENT_STATE_EXPIRED', settlementPx: '1' }];
    expect(await settlementsVia('familyA')).toEqual(expected);
    expect(await settlementsVia('gateway')).toEqual(expected);
  });

  it("takes the family from the config's bot.venue, the flag overriding it", async () => {
    const dir = tempDir();
    const config = path.join(dir, 'history-a.yaml');
    writeFileSync(config, `${readFileSync('backtest/data/sample-sim.yaml', 'utf8')}\nbot:\n  venue: familyA\n`);
    expect((await fetchWith(dir, 'config', ['--config', config])).source).toBe('familyA');
    expect((await fetchWith(dir, 'flag', ['--config', config, '--source', 'gateway'])).source).toBe('gateway');
    expect((await fetchWith(dir, 'default', ['--config', 'backtest/data/sample-sim.yaml'])).source).toBe('gateway');
  }, 120_000);
});
