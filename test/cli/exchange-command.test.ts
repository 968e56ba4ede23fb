/**
 * `tradebot exchange`: the exchange's own view through the gateway's lookups. Against the embedded exchange
 * of config/sim.yaml (alice's two accounts, 100000 USD each): balances as a table and as JSON, open orders
 * and positions (none yet), a trade search with a time window, an account that is not the user's refused
 * with the accounts that are; and the row builders: a trade between the user's own two accounts gives a
 * row per side, another firm's side is never shown, decimals are printed as the exchange sent them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { formatTable, tradeRows } from '../../src/cli/actions/exchange.ts';
import type { Trade } from '../../src/domain/index.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { captureOutput } from './helpers/output.ts';

afterEach(() => vi.restoreAllMocks());

describe('tradebot exchange against the embedded exchange', () => {
  it('prints balances, open orders, positions and trades; refuses a foreign account', { timeout: 60_000 }, async () => {
    let io = captureOutput();
    expect(await runCli(['exchange', 'balances'])).toBe(0);
    expect(io.out().split('\n')).toEqual([
      'account                          currency  balance  buyingPower  openOrders  unsettled  withdrawable',
      'firms/demo/accounts/alice-main   USD        100000       100000           0          0        100000',
      'firms/demo/accounts/alice-hedge  USD        100000       100000           0          0        100000',
      '',
    ]);
    vi.restoreAllMocks();
    io = captureOutput();
    expect(await runCli(['exchange', 'balances', '--json', '--account', 'firms/demo/accounts/alice-main'])).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({
      event: 'exchange.balances',
      rows: [{ account: 'firms/demo/accounts/alice-main', balance: '100000' }],
    });
    vi.restoreAllMocks();
    io = captureOutput();
    expect(await runCli(['exchange', 'orders'])).toBe(0);
    expect(await runCli(['exchange', 'positions', '--json'])).toBe(0);
    expect(await runCli(['exchange', 'trades', '--from', '2026-01-01T00:00:00Z', '--to', '2027-01-01T00:00:00Z', '--json'])).toBe(0);
    expect(io.out().split('\n')).toEqual([
      '(none)',
      '{"event":"exchange.positions","rows":[]}',
      '{"event":"exchange.trades","rows":[]}',
      '',
    ]);
    vi.restoreAllMocks();
    io = captureOutput();
    expect(await runCli(['exchange', 'orders', '--account', 'firms/other/accounts/x'])).toBe(2);
    expect(io.err()).toContain(
      'not an account of this user: firms/other/accounts/x (theirs: firms/demo/accounts/alice-main, firms/demo/accounts/alice-hedge)',
    );
  });
});

describe('exchange view rows', () => {
  const side = (account: string, sideName: string, id: string) => ({
    order: { account, symbol: 'RAIN', side: sideName, id },
    lastShares: new Decimal('3'),
    lastPx: new Decimal('0.42'),
    transactTime: Date.UTC(2026, 10, 27, 12),
  });
  const trade = (passiveAccount: string) =>
    ({
      id: 'T1',
      state: 'TRADE_STATE_NEW',
      aggressor: side('firms/demo/accounts/a', 'SIDE_BUY', 'O1'),
      passive: side(passiveAccount, 'SIDE_SELL', 'O2'),
    }) as unknown as Trade;

  it('one row per own side; the other firm is not shown', () => {
    const mine = new Set(['firms/demo/accounts/a', 'firms/demo/accounts/b']);
    expect(tradeRows(trade('firms/demo/accounts/b'), mine).map((r) => [r['side'], r['liquidity'], r['account']])).toEqual([
      ['BUY', 'taker', 'firms/demo/accounts/a'],
      ['SELL', 'maker', 'firms/demo/accounts/b'],
    ]);
    const rows = tradeRows(trade('firms/other/accounts/z'), mine);
    expect(rows).toEqual([
      {
        tradeId: 'T1',
        time: '2026-11-27T12:00:00.000Z',
        account: 'firms/demo/accounts/a',
        symbol: 'RAIN',
        side: 'BUY',
        qty: '3',
        price: '0.42',
        liquidity: 'taker',
        orderId: 'O1',
        state: 'NEW',
      },
    ]);
    expect(formatTable(rows).split('\n')[0]).toBe(
      'tradeId  time                      account                symbol  side  qty  price  liquidity  orderId  state',
    );
  });
});
