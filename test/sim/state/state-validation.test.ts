/**
 * A sim state file is validated as a whole before anything is restored (issue 21, point 3): an order listed
 * twice (which doubled its resting quantity and filled it twice), leaves above the quantity, counters set back
 * below the saved ids, amounts out of bounds (cash 1e400), duplicated accounts, trades or clord_id entries, a
 * clord_id entry naming no saved order: each is refused with SIM_STATE_INVALID naming the problem, by
 * `readStateFile` and so by `startSim`. A state the exchange wrote itself passes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { captureCore, readStateFile } from '../../../src/sim/state/index.ts';
import type { StateFile } from '../../../src/sim/state/schema.ts';
import type { OrderRequest, Side } from '../../../src/sim/matching/types.ts';
import { startSim } from '../../../src/sim/simulator.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ManualClock, SYMBOL, simConfig } from '../gateway/helpers/harness.ts';

const A = 'firms/demo/accounts/a';
const B = 'firms/demo/accounts/b';

let dir: string;
let clock: ManualClock;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradebot-state-valid-'));
  clock = new ManualClock();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function limit(account: string, side: Side, qty: number, price: number, clordId: string): OrderRequest {
  return {
    account,
    symbol: SYMBOL,
    side,
    type: 'ORDER_TYPE_LIMIT',
    orderQty: qty,
    price,
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    clordId,
    participant: 'firms/demo/users/test',
  };
}

/** A saved exchange with resting orders, a partial fill, a trade, balances and positions. */
function savedState(): StateFile {
  const config = simConfig();
  const core = new ExchangeCore({ clock, instruments: config.instruments, startingBalance: config.startingBalance, currency: 'USD' });
  core.submit(limit(A, 'SIDE_BUY', 10, 5, 'a-1'));
  core.submit(limit(A, 'SIDE_BUY', 4, 6, 'a-2'));
  core.submit(limit(B, 'SIDE_SELL', 3, 5, 'b-1'));
  core.submit(limit(B, 'SIDE_SELL', 2, 60, 'b-2'));
  return captureCore(core, clock.now());
}

async function refusal(state: unknown): Promise<string> {
  const file = path.join(dir, `state-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(state));
  const error = (await readStateFile(file).then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: string; message?: string } | undefined;
  expect(error?.code).toBe('SIM_STATE_INVALID');
  return error?.message ?? '';
}

const clone = (s: StateFile): StateFile => JSON.parse(JSON.stringify(s)) as StateFile;

describe('a restored state is checked as a whole', () => {
  it('accepts a state the exchange wrote', async () => {
    const file = path.join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify(savedState()));
    expect(await readStateFile(file)).toBeDefined();
  });

  it('refuses a working order listed twice', async () => {
    const state = clone(savedState());
    state.engine.orders.push(clone(state).engine.orders[0] as StateFile['engine']['orders'][number]);
    expect(await refusal(state)).toMatch(/engine\.orders\[\d+\]: order O0+1 is listed twice/);
  });

  it('refuses leaves above the quantity, and a fill state that does not add up', async () => {
    const state = clone(savedState());
    const order = state.engine.orders[0];
    if (order === undefined) throw new Error('no order');
    order.leavesQty = order.terms.orderQty + 5;
    expect(await refusal(state)).toMatch(/engine\.orders\[0\]: leavesQty \d+ is above orderQty/);
    const history = clone(savedState());
    const record = history.orders[0];
    if (record === undefined) throw new Error('no record');
    record.latest.cumQty = record.latest.terms.orderQty + 1;
    expect(await refusal(history)).toMatch(/orders\[0\]: cumQty \d+ \+ leavesQty \d+ is above orderQty/);
  });

  it('refuses counters set back below the saved ids', async () => {
    const state = clone(savedState());
    state.engine.counters.order = 1;
    expect(await refusal(state)).toMatch(/engine\.counters\.order: 1 is below the saved order id 4/);
    const trades = clone(savedState());
    trades.engine.counters.trade = 0;
    expect(await refusal(trades)).toMatch(/engine\.counters\.trade: 0 is below the saved trade id 1/);
    const execs = clone(savedState());
    execs.engine.counters.exec = 2;
    expect(await refusal(execs)).toMatch(/engine\.counters\.exec: 2 is below the saved execution id/);
  });

  it('refuses amounts out of bounds', async () => {
    const state = clone(savedState());
    const balance = state.ledger.balances[0];
    if (balance === undefined) throw new Error('no balance');
    balance.cash = '1e400';
    expect(await refusal(state)).toMatch(/ledger\.balances\[0\]\.cash: 1e400 is outside/);
    const position = clone(savedState());
    const p = position.ledger.positions[0];
    if (p === undefined) throw new Error('no position');
    p.realizedPnl = '-1e30';
    expect(await refusal(position)).toMatch(/ledger\.positions\[0\]\.realizedPnl/);
  });

  it('refuses duplicated balances, positions, trades and clord_id entries, and an entry naming no saved order', async () => {
    const balances = clone(savedState());
    balances.ledger.balances.push(clone(balances).ledger.balances[0] as StateFile['ledger']['balances'][number]);
    expect(await refusal(balances)).toMatch(/ledger\.balances\[\d+\]: account .* is listed twice/);
    const trades = clone(savedState());
    trades.trades.push(clone(trades).trades[0] as StateFile['trades'][number]);
    expect(await refusal(trades)).toMatch(/trades\[\d+\]: trade T0+1 is listed twice/);
    const index = clone(savedState());
    index.clordIndex.push(['firms/demo/accounts/a', 'ghost', 'O0000000000009999']);
    expect(await refusal(index)).toMatch(/clordIndex\[\d+\]: order O0000000000009999 is not among the saved orders/);
    const history = clone(savedState());
    history.orders.push(clone(history).orders[0] as StateFile['orders'][number]);
    expect(await refusal(history)).toMatch(/orders\[\d+\]: order O0+1 is listed twice/);
  });

  it('startSim refuses such a file at start, naming it', async () => {
    const state = clone(savedState());
    state.engine.orders.push(clone(state).engine.orders[0] as StateFile['engine']['orders'][number]);
    const file = path.join(dir, 'sim-state.json');
    writeFileSync(file, JSON.stringify(state));
    const config = { ...simConfig(), stateFile: file };
    await expect(startSim(config, { logger: silentLogger(), clock, activityTimer: false })).rejects.toMatchObject({
      code: 'SIM_STATE_INVALID',
      message: expect.stringContaining(file),
    });
  });
});
