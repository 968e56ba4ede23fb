/**
 * The simulator killed and restarted with its state (`sim.stateFile`) under the live bot: stopped cleanly
 * (SIGTERM: the final write has everything) and killed (SIGKILL: the last periodic write, at most one
 * interval old), then started again on the same ports. The bot's streams reconnect, its tokens (signed with
 * the old process's random secret) are refused and it logs in again, the order stream snapshot and the
 * reconciliation bring it in line with the restored exchange: no order twice, positions and open orders
 * equal, trading active again. The `tradebot sim` process itself is then stopped with SIGTERM and SIGKILL:
 * the working orders survive a SIGTERM exactly, and a SIGKILL keeps what the last periodic write had.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLiveBot, type LiveBot, BOT_ACCOUNTS } from './helpers/live-bot.ts';
import { captureCore, writeStateFile } from '../../src/sim/state/index.ts';
import { expectFeedCycle, expectRecovered } from './helpers/invariants.ts';
import { startSimProcess, watchFile, type SimProcess } from './helpers/sim-process.ts';

let bot: LiveBot | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tradebot-restart-'));
});
afterEach(async () => {
  await bot?.close();
  bot = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function openOrderIds(b: LiveBot): string[] {
  return BOT_ACCOUNTS.flatMap((account) => b.sim.core.openOrders({ account }).map((o) => o.orderId)).sort();
}

/** After a restart: the feed came back, the order stream resnapshotted, the account was reconciled and the bot trades. */
async function backInBusiness(b: LiveBot, before: { reconciliations: number; fills: number; logins: number }): Promise<void> {
  await b.waitUntil(
    () => {
      const feed = b.stateChanges.filter((c) => c.cause === 'feed');
      return feed.length >= 2 && feed.at(-1)?.to === 'active';
    },
    'trading active again after the restart',
    60_000,
  );
  await b.waitUntil(
    () =>
      b.pipeline.counters.reconciliations > before.reconciliations &&
      b.client.sessionInfo().logins > before.logins &&
      b.pipeline.counters.fills > before.fills,
    'reconciled, logged in again and trading',
    60_000,
  );
}

describe('simulator restarted with its state under the live bot', () => {
  it('stopped cleanly (the final state write): the bot finds its orders where it left them and carries on', async () => {
    const stateFile = path.join(dir, 'sim-state.json');
    bot = await startLiveBot({ sim: `  stateFile: ${stateFile}\n  stateIntervalSeconds: 1` });
    const b = bot;
    await b.waitUntil(() => b.pipeline.counters.fills >= 2 && openOrderIds(b).length > 0, 'fills with quotes working');
    const before = {
      reconciliations: b.pipeline.counters.reconciliations,
      fills: b.pipeline.counters.fills,
      logins: b.client.sessionInfo().logins,
    };
    const positions = b.exchangePositions();
    // the activity stops with the old process; what rests at its close is what the new one starts with
    const restart = b.restartSim({ crash: false });
    const atClose = await new Promise<string[]>((resolve) => setImmediate(() => resolve(openOrderIds(b))));
    await restart;
    expect(openOrderIds(b)).toEqual(expect.arrayContaining(atClose.filter((id) => b.sim.core.order(id) !== undefined)));
    expect(b.exchangePositions()).toEqual(positions);
    await backInBusiness(b, before);
    expectFeedCycle(b);
    await expectRecovered(b);
  }, 120_000);

  it('killed (no final write): the exchange comes back as of its last periodic write and the bot reconciles with it', async () => {
    const stateFile = path.join(dir, 'sim-state.json');
    bot = await startLiveBot({ sim: `  stateFile: ${stateFile}\n  stateIntervalSeconds: "0.5"` });
    const b = bot;
    await b.waitUntil(() => b.pipeline.counters.fills >= 2 && existsSync(stateFile), 'fills, and a state written');
    const before = {
      reconciliations: b.pipeline.counters.reconciliations,
      fills: b.pipeline.counters.fills,
      logins: b.client.sessionInfo().logins,
    };
    await b.restartSim({ crash: true });
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as { savedAt: number };
    expect(Date.now() - saved.savedAt).toBeLessThan(60_000);
    await backInBusiness(b, before);
    expectFeedCycle(b);
    await expectRecovered(b);
  }, 120_000);

  it('killed after the bot cancelled its quotes: the exchange comes back working them (cancels lost), the bot cancels them', async () => {
    const stateFile = path.join(dir, 'sim-state.json');
    bot = await startLiveBot({ sim: `  stateFile: ${stateFile}\n  stateIntervalSeconds: 3600` });
    const b = bot;
    const quoting = () => b.pipeline.tracker.open().filter((o) => o.state === 'NEW').length === 2 && b.venue.inFlight === 0;
    await b.waitUntil(() => b.pipeline.counters.fills >= 1 && quoting(), 'a fill, then a bid and an offer working');
    b.sim.activity?.stop();
    await b.waitUntil(quoting, 'a bid and an offer working, activity stopped');
    const quotes = openOrderIds(b);
    await writeStateFile(stateFile, captureCore(b.sim.core, Date.now())); // the last write before the kill
    b.pipeline.risk.tradingState.setState('halted', 'test: operator halt');
    await b.waitUntil(() => b.pipeline.tracker.open().length === 0 && openOrderIds(b).length === 0, 'the halt cancelled both quotes');
    const before = { reconciliations: b.pipeline.counters.reconciliations, fills: b.pipeline.counters.fills };
    await b.restartSim({ crash: true });
    b.sim.activity?.stop();
    expect(openOrderIds(b)).toEqual(quotes); // working again on the exchange, CANCELED for the bot
    await b.waitUntil(
      () => b.pipeline.counters.reconciliations > before.reconciliations && openOrderIds(b).length === 0 && b.venue.inFlight === 0,
      'the bot cancelled the orders the exchange works again',
      60_000,
    );
    expect(b.pipeline.tracker.open()).toEqual([]);
    // each came back cancelled by the bot, unless the restarted market's first quotes filled it first
    expect(b.pipeline.counters.zombiesCancelled + (b.pipeline.counters.fills - before.fills)).toBeGreaterThanOrEqual(quotes.length);
    b.pipeline.risk.tradingState.setState('active', 'test: resume');
    await expectRecovered(b);
  }, 120_000);
});

// ---- the `tradebot sim` process ----------------------------------------------------------------------------

const ALICE = { username: 'alice', password: 'Proc-Alice-Pass-2026' };
const ACCOUNT = 'firms/demo/accounts/alice-main';

function simYaml(stateFile: string): string {
  return `
logging: { level: warn }
sim:
  stateFile: ${stateFile}
  stateIntervalSeconds: "0.3"
  users:
    - { username: alice, password: "${ALICE.password}", participant: firms/demo/users/alice, accounts: [${ACCOUNT}] }
  instruments:
    - { symbol: RAIN-NYC-2026-12-01, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
  activity: { enabled: false }
`;
}

async function post(base: string, route: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: token }) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${route}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function login(base: string): Promise<string> {
  return String((await post(base, '/auth/v1beta1/login', ALICE))['accessToken']);
}

async function insert(base: string, token: string, clordId: string, price: string): Promise<string> {
  const order = {
    symbol: 'RAIN-NYC-2026-12-01',
    side: 'SIDE_BUY',
    order_qty: '3',
    price,
    type: 'ORDER_TYPE_LIMIT',
    time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    account: ACCOUNT,
    clord_id: clordId,
  };
  return String((await post(base, '/api/v1beta1/insert_order', order, token))['order_id']);
}

async function openOrders(base: string, token: string): Promise<string[]> {
  const json = await post(base, '/api/v1beta1/get_open_orders', { accounts: [ACCOUNT] }, token);
  const orders = (json['orders'] as { clord_id?: string; id?: string }[] | undefined) ?? [];
  return orders.map((o) => `${o.clord_id} ${o.id}`).sort();
}

/** Resolves once the state file was rewritten after `since` (mtime), i.e. a periodic write happened. */
async function rewrittenAfter(file: string, since: number, proc: SimProcess): Promise<void> {
  const written = () => existsSync(file) && statSync(file).mtimeMs > since;
  const writes = watchFile(file); // the sim writes a temp file and renames it over the state file
  try {
    await new Promise<void>((resolve, reject) => {
      const subscription = writes.changes$.subscribe(() => {
        if (!written()) return;
        subscription.unsubscribe();
        resolve();
      });
      void proc.process.exit.then((exit) =>
        reject(new Error(`tradebot sim exited (${JSON.stringify(exit)}) before ${file} was rewritten`)),
      );
      if (written()) resolve();
    });
  } finally {
    writes.close();
  }
}

describe('the tradebot sim process and its state file', () => {
  let proc: SimProcess | undefined;
  afterEach(async () => {
    await proc?.stop('SIGKILL');
    proc = undefined;
  });

  it('SIGTERM writes everything; SIGKILL keeps the last periodic write (orders after it are lost)', async () => {
    const stateFile = path.join(dir, 'state.json');
    const configFile = path.join(dir, 'sim.yaml');
    writeFileSync(configFile, simYaml(stateFile));

    proc = await startSimProcess(configFile);
    let gateway = proc.ready.gateway;
    let token = await login(gateway);
    const first = await insert(gateway, token, 'p-1', '30');
    expect((await proc.stop('SIGTERM')).code).toBe(0);

    proc = await startSimProcess(configFile);
    gateway = proc.ready.gateway;
    token = await login(gateway);
    expect(await openOrders(gateway, token)).toEqual([`p-1 ${first}`]);
    // a retry of the first insert is recognised across the restart
    expect(await insert(gateway, token, 'p-1', '30')).toBe(first);
    const second = await insert(gateway, token, 'p-2', '31');
    const afterSecond = Date.now();
    await rewrittenAfter(stateFile, afterSecond, proc);
    const third = await insert(gateway, token, 'p-3', '32');
    expect((await proc.stop('SIGKILL')).signal).toBe('SIGKILL');

    proc = await startSimProcess(configFile);
    gateway = proc.ready.gateway;
    token = await login(gateway);
    const open = await openOrders(gateway, token);
    expect(open).toEqual([`p-1 ${first}`, `p-2 ${second}`]); // p-3 came after the last write: lost
    const fourth = await insert(gateway, token, 'p-3', '32');
    expect(fourth).not.toBe(third); // ids issued by the killed process are never issued again
    expect((await proc.stop('SIGTERM')).code).toBe(0);
  }, 120_000);
});
