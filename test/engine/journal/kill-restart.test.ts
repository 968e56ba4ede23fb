/**
 * End to end, with real processes: `tradebot sim` (activity on) and `tradebot run` (the market maker)
 * connected to it as to an environment (an `exchange` section: family A for reference data with a key pair
 * made in the test folder and registered in `sim.clients`, the gateway for trading). The bot is SIGKILLed
 * once its journal shows it trading, restarted on the same journal, left to trade, and stopped with SIGINT.
 * Then, against the exchange (search_orders through the real clients):
 * - no order was sent twice: every insert clordId is journaled once over both runs, and the exchange has at
 *   most one order per clordId;
 * - every journaled order is accounted for: it is on the exchange under its order id, or journaled as
 *   refused; every order of the account on the exchange was journaled;
 * - the restarted run tracked the killed run's orders in flight again (its log says how many) with ids of
 *   its own that continue the sequence;
 * - after the clean stop, its run.summary (open orders, position) and the compacted journal match the
 *   exchange.
 * Waits only on journal contents, log lines and process exits.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema, parseConfigText } from '../../../src/config/index.ts';
import { generateKeyFiles } from '../../../src/cli/commands/keygen.ts';
import { createFamilyAClient } from '../../../src/exchange/familya/index.ts';
import { GatewayClient, instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import type { Order } from '../../../src/domain/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ACCOUNT, SYMBOL } from './helpers/entries.ts';
import { exchangeYaml, KILL_TEST_PASSWORD, simAccessYaml } from './helpers/external-sim-yaml.ts';
import { journalLines, killAll, tradebot, watchJournal } from './helpers/processes.ts';

afterAll(killAll);

const CLIENT_ID = 'journal-kill-test';

function simYaml(publicKeyFile: string): string {
  return `
logging: { level: warn, pretty: false }
sim:
${simAccessYaml(publicKeyFile, CLIENT_ID)}
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
  activity: { enabled: true, seed: 5, intervalMs: 40, makersPerInstrument: 3,
    takerProbability: "0.7", volatilityTicks: "1", maxOrderQty: 6 }
`;
}

function botYaml(ready: Record<string, string>, privateKeyFile: string, journal: string): string {
  return `
logging: { level: info, pretty: false }
${exchangeYaml(ready, privateKeyFile, CLIENT_ID)}
bot:
  strategy: market-maker
  account: ${ACCOUNT}
  journal: ${JSON.stringify(journal)}
  params: { symbols: [${SYMBOL}], halfSpread: "0.01", quoteQty: "2", maxInventory: "20", skewPerContract: "0.001" }
risk:
  maxOrderQty: "10"
  maxPosition: "30"
  maxOpenOrders: 10
  maxMessagesPerSecond: 50
`;
}

type Line = Record<string, unknown>;
const str = (line: Line, key: string): string => String(line[key] ?? '');
const requests = (lines: readonly Line[], kind?: string) =>
  lines.filter((l) => l['type'] === 'request' && (kind === undefined || l['kind'] === kind));
const runIdOf = (clordId: string) => clordId.split('-')[1] ?? '';
const seqOf = (clordId: string) => Number(clordId.split('-')[2]);

/** Every order of the account on the exchange, all pages. */
async function exchangeOrders(client: GatewayClient): Promise<Order[]> {
  const orders: Order[] = [];
  for await (const order of client.iterateOrders({ accounts: [ACCOUNT], pageSize: 500 })) orders.push(order);
  return orders;
}

describe('order journal: SIGKILL and restart against an external simulator', () => {
  it('resumes what the killed bot had in flight, sends nothing twice, and ends matching the exchange', { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'tradebot-kill-'));
    const keys = generateKeyFiles(path.join(dir, 'keys'));
    fs.writeFileSync(path.join(dir, 'sim.yaml'), simYaml(keys.publicKeyFile));
    const sim = tradebot(['sim', '--config', path.join(dir, 'sim.yaml')]);
    const ready = JSON.parse(await sim.line('stdout', (l) => l.includes('sim.ready'), 'sim.ready')) as Record<string, string>;

    const journal = path.join(dir, 'state', 'journal.jsonl');
    fs.mkdirSync(path.dirname(journal)); // watched before the bot creates the file
    const botConfig = path.join(dir, 'bot.yaml');
    fs.writeFileSync(botConfig, botYaml(ready, keys.privateKeyFile, journal));
    process.env['KILL_TEST_PASSWORD'] = KILL_TEST_PASSWORD;
    const runBot = () => tradebot(['run', '--config', botConfig]);

    // run 1: trade until the journal shows inserts, acknowledgements and replaces, then SIGKILL
    const first = runBot();
    await watchJournal(
      journal,
      (lines) => requests(lines, 'insert').length >= 4 && requests(lines, 'replace').length >= 2 && lines.some((l) => l['type'] === 'ack'),
      first,
      'run 1 journaled inserts, acks and replaces',
    );
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');
    const atKill = journalLines(journal);
    const run1 = str(atKill.find((l) => l['type'] === 'runStart') ?? {}, 'runId');
    expect(atKill.some((l) => l['type'] === 'runStop')).toBe(false);

    // run 2 on the same journal: it replays, trades with ids of its own, and stops cleanly on SIGINT
    const second = runBot();
    const replayed = JSON.parse(await second.line('stderr', (l) => l.includes('order journal replayed'), 'the journal replay')) as {
      restored: number;
      ordersInJournal: number;
    };
    expect(replayed.ordersInJournal).toBe(requests(atKill, 'insert').length);
    await second.line('stderr', (l) => l.includes('reconciled with the exchange'), 'the first reconciliation');
    let run2 = '';
    await watchJournal(
      journal,
      (lines) => {
        run2 = str(lines.filter((l) => l['type'] === 'runStart').at(-1) ?? {}, 'runId');
        return run2 !== run1 && requests(lines).filter((l) => runIdOf(str(l, 'clordId')) === run2).length >= 6;
      },
      second,
      'run 2 journaled requests of its own',
    );
    second.child.kill('SIGINT');
    const secondExit = await second.exit;
    expect(secondExit, second.stderr.slice(-20).join('\n')).toEqual({ code: 0, signal: null });
    const summary = JSON.parse(second.stdout.at(-1) ?? '{}') as {
      event: string;
      openOrders: number;
      positions: Record<string, string>;
      journal: { restored: number; syncs: number; syncMicros: number };
      reconciled: boolean;
      reconcileReason?: string;
    };
    expect(summary.event).toBe('run.summary');
    expect(summary.reconciled, summary.reconcileReason).toBe(true);
    expect(summary.journal.restored).toBe(replayed.restored);

    // the journal: history kept as .prev, the live file compacted
    const history = journalLines(`${journal}.prev`);
    const compacted = journalLines(journal);
    expect(history.slice(0, atKill.length)).toEqual(atKill);
    const inserts = requests(history, 'insert').map((l) => str(l, 'clordId'));
    expect(new Set(inserts).size, 'an insert clordId journaled twice').toBe(inserts.length);
    expect(new Set(inserts.map(runIdOf))).toEqual(new Set([run1, run2]));
    const run1Max = Math.max(
      ...inserts.filter((c) => runIdOf(c) === run1).map(seqOf),
      ...requests(atKill, 'replace').map((l) => seqOf(str(l, 'clordId'))),
    );
    expect(
      Math.min(
        ...requests(history)
          .filter((l) => runIdOf(str(l, 'clordId')) === run2)
          .map((l) => seqOf(str(l, 'clordId'))),
      ),
    ).toBeGreaterThan(run1Max);

    // the exchange, through the real clients
    const config = parseConfigText(fs.readFileSync(botConfig, 'utf8'), configSchema, {
      env: { KILL_TEST_PASSWORD },
      file: botConfig,
    });
    if (config.exchange === undefined) throw new Error('no exchange section');
    const familyA = createFamilyAClient(config.exchange, { logger: silentLogger() });
    const instruments = await familyA.client.loadInstruments([SYMBOL]);
    const client = new GatewayClient({
      gatewayUrl: ready['gateway'] ?? '',
      credentials: { username: 'alice', password: KILL_TEST_PASSWORD },
      instruments: instrumentCatalog(instruments),
      logger: silentLogger(),
    });
    try {
      await client.login();
      const orders = await exchangeOrders(client);
      const byClordId = new Map<string, number>();
      for (const order of orders) byClordId.set(order.clordId, (byClordId.get(order.clordId) ?? 0) + 1);
      expect(
        [...byClordId].filter(([, n]) => n > 1),
        'clordIds on two exchange orders',
      ).toEqual([]);

      // every journaled insert: on the exchange under the order id the journal learned, or journaled as refused
      const orderIdOf = new Map<string, string>();
      const latestOf = new Map<string, string>();
      for (const line of history) {
        if ((line['type'] === 'ack' || line['type'] === 'execution' || line['type'] === 'resolved') && str(line, 'orderId') !== '')
          orderIdOf.set(str(line, 'clordId'), str(line, 'orderId'));
        if (line['type'] === 'request' && line['kind'] === 'replace') latestOf.set(str(line, 'origClordId'), str(line, 'clordId'));
      }
      const refused = new Set(
        history
          .filter((l) => (l['type'] === 'sendFailed' || l['type'] === 'resolved') && l['state'] === 'REJECTED')
          .map((l) => str(l, 'clordId')),
      );
      const exchangeIds = new Set(orders.map((o) => o.id));
      const unaccounted = inserts.filter((clordId) => {
        const orderId = orderIdOf.get(clordId);
        if (orderId !== undefined) return !exchangeIds.has(orderId);
        return !(refused.has(clordId) && !byClordId.has(clordId));
      });
      expect(unaccounted, 'journaled orders neither on the exchange nor refused').toEqual([]);
      const journaledIds = new Set([...inserts, ...requests(history, 'replace').map((l) => str(l, 'clordId'))]);
      expect(
        orders.filter((o) => !journaledIds.has(o.clordId)).map((o) => o.clordId),
        'exchange orders the journal does not know',
      ).toEqual([]);

      // the end state: summary and compacted journal agree with the exchange
      const open = await client.getOpenOrders({ accounts: [ACCOUNT] });
      expect(summary.openOrders).toBe(open.length);
      expect(compacted.filter((l) => l['type'] === 'open')).toHaveLength(open.length);
      expect(compacted[0]).toMatchObject({ type: 'checkpoint', runIds: expect.arrayContaining([run1, run2]) });
      const positions = await client.listAccountPositions({ name: ACCOUNT, symbol: SYMBOL });
      const net = positions.positions.find((p) => p.symbol === SYMBOL)?.netPosition.toString() ?? '0';
      expect(summary.positions[SYMBOL] ?? '0').toBe(net);
    } finally {
      await client.close();
      await familyA.client.close();
      delete process.env['KILL_TEST_PASSWORD'];
      sim.child.kill('SIGINT');
      await sim.exit;
    }
  });
});
