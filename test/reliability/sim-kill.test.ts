/**
 * The simulator PROCESS killed and restarted with its state, under the live bot: `tradebot sim` runs as a
 * child process with a state file (`sim.stateFile`, written every 0.5 s) on ports the test picked free; the
 * bot (bot-rig.ts: the real clients and the pipeline as run-live.ts assembles it, with its order journal on
 * a temp file, reference data from the family A API as against an environment) trades on it. Once a state
 * write holds the bot's trading, the sim gets SIGKILL (no final write: whatever happened after the last
 * periodic write is undone on the exchange) and is started again on the same ports from the same file.
 *
 * Checked: trading goes reducing (feed) while the exchange is down and active after; the bot logs in again
 * (the killed process's tokens die with its random signing secret), reconciles and trades; its open orders
 * and positions equal the exchange's (read through the real API); no clord_id is on two exchange orders,
 * every exchange order of the bot's accounts is one the bot tracks and was journaled before it was sent, no
 * insert was journaled twice; no promise rejection went unhandled. Waits are on bot events, the state
 * file's folder (fs.watch) and process output, never on sleeps.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Subject } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { configSchema, parseConfigText } from '../../src/config/index.ts';
import { generateKeyFiles } from '../../src/cli/commands/keygen.ts';
import { createFamilyAClient } from '../../src/exchange/familya/index.ts';
import { GatewayClient, instrumentCatalog } from '../../src/exchange/gateway/index.ts';
import type { Instrument, Order } from '../../src/domain/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { killAll } from '../engine/journal/helpers/processes.ts';
import {
  ALICE_HEDGE,
  ALICE_MAIN,
  BOT_ACCOUNTS,
  PARTICIPANT,
  SYMBOL,
  positionKey,
  startBotRig,
  type BotRig,
  type Positions,
} from './helpers/bot-rig.ts';
import { journaledRequests } from './helpers/invariants.ts';
import { freePorts, startSimProcess, watchFile, type SimPorts, type SimProcess } from './helpers/sim-process.ts';

const PASSWORD = 'Kill-Sim-Alice-2026';
const CLIENT_ID = 'reliability-sim-kill';
const PENDING = new Set(['PENDING_NEW', 'PENDING_CANCEL', 'PENDING_REPLACE', 'UNKNOWN']);

function simYaml(ports: SimPorts, publicKeyFile: string, stateFile: string): string {
  return `
logging: { level: warn, pretty: false }
sim:
  ports: { api: ${ports.api}, auth: ${ports.auth}, gateway: ${ports.gateway}, grpc: ${ports.grpc} }
  startingBalance: "100000"
  gateway: { heartbeatSeconds: "0.5" }
  users:
    - { username: alice, password: "${PASSWORD}", participant: ${PARTICIPANT}, accounts: [${ALICE_MAIN}, ${ALICE_HEDGE}] }
  clients:
    - { clientId: ${CLIENT_ID}, publicKeyFile: ${JSON.stringify(publicKeyFile)}, participant: ${PARTICIPANT}, scopes: [read:instruments] }
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
  activity: { enabled: true, seed: 11, intervalMs: 60, makersPerInstrument: 3,
    takerProbability: "0.6", volatilityTicks: "0.6", maxOrderQty: 8 }
  stateFile: ${JSON.stringify(stateFile)}
  stateIntervalSeconds: "0.5"
risk:
  maxMessagesPerSecond: 50
  maxPosition: "30"
`;
}

/** The bot's accounts on the exchange, read through the real gateway API. */
interface ExchangeView {
  orders: Order[];
  open: string[];
  positions: Positions;
}

async function exchangeView(client: GatewayClient): Promise<ExchangeView> {
  const orders: Order[] = [];
  for await (const order of client.iterateOrders({ accounts: [...BOT_ACCOUNTS], pageSize: 500 })) orders.push(order);
  const open = (await client.getOpenOrders({ accounts: [...BOT_ACCOUNTS] })).map((o) => o.id).sort();
  const positions: Positions = new Map();
  for (const account of BOT_ACCOUNTS) {
    for (const p of (await client.listAccountPositions({ name: account })).positions) {
      if (!p.netPosition.isZero()) positions.set(positionKey(account, p.symbol), p.netPosition.toNumber());
    }
  }
  return { orders, open, positions };
}

const positionsText = (p: Positions) => JSON.stringify([...p.entries()].filter(([, q]) => q !== 0).sort());
const localOpen = (bot: BotRig) =>
  bot.pipeline.tracker
    .open()
    .map((o) => o.orderId ?? `(no id: ${o.clordId} ${o.state})`)
    .sort();
const quiet = (bot: BotRig) => bot.venue.inFlight === 0 && !bot.pipeline.tracker.open().some((o) => PENDING.has(o.state));

/** Why the bot and the exchange disagree ('' when they do not). */
function disagreement(bot: BotRig, view: ExchangeView): string {
  const problems: string[] = [];
  if (localOpen(bot).join() !== view.open.join())
    problems.push(`open orders: exchange ${view.open.join(' ')} | bot ${localOpen(bot).join(' ')}`);
  if (positionsText(bot.localPositions()) !== positionsText(view.positions))
    problems.push(`positions: exchange ${positionsText(view.positions)} | bot ${positionsText(bot.localPositions())}`);
  return problems.join('; ');
}

/** The state file's save time and clord_id index, once the sim wrote it. */
function savedState(file: string): { savedAt: number; clordIndex: [string, string, string][] } | undefined {
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { savedAt: number; clordIndex: [string, string, string][] })
    : undefined;
}

afterAll(killAll);

describe('tradebot sim killed (SIGKILL) and restarted with its state under the live bot', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-sim-kill-'));
  let sim: SimProcess | undefined;
  let bot: BotRig | undefined;
  let auditor: GatewayClient | undefined;
  afterEach(async () => {
    await bot?.close();
    await auditor?.close().catch(() => undefined);
    await sim?.stop('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'trading reducing while it is down and active after; orders, fills and positions agree with the restored exchange',
    { timeout: 180_000 },
    async () => {
      const keys = generateKeyFiles(path.join(dir, 'keys'));
      const stateFile = path.join(dir, 'state', 'sim-state.json');
      const configFile = path.join(dir, 'sim.yaml');
      const ports = await freePorts();
      writeFileSync(configFile, simYaml(ports, keys.publicKeyFile, stateFile));
      mkdirSync(path.dirname(stateFile)); // watched before the sim writes into it
      const stateWrites = watchFile(stateFile);

      sim = await startSimProcess(configFile);
      const ready = sim.ready;
      expect(new URL(ready.gateway).port).toBe(String(ports.gateway));
      // reference data as against an environment: the family A API with the bot's own key
      const config = parseConfigText(
        `exchange:\n  apiUrl: ${ready.api}\n  authUrl: ${ready.auth}\n  gatewayUrl: ${ready.gateway}\n` +
          `  familyA: { clientId: ${CLIENT_ID}, privateKeyFile: ${JSON.stringify(keys.privateKeyFile)}, participant: ${PARTICIPANT} }\n` +
          'risk:\n  maxMessagesPerSecond: 50\n  maxPosition: "30"\n',
        configSchema,
        { env: {} },
      );
      const familyA = createFamilyAClient(config.exchange ?? (undefined as never), { logger: silentLogger() });
      let instruments: Instrument[];
      try {
        instruments = [...(await familyA.client.loadInstruments([SYMBOL]))];
      } finally {
        await familyA.client.close();
      }
      const wake$ = new Subject<void>();
      const wakeOnState = stateWrites.changes$.subscribe(() => wake$.next());
      bot = await startBotRig({
        gatewayUrl: ready.gateway,
        password: PASSWORD,
        instruments,
        risk: config.risk,
        logger: silentLogger(),
        journal: path.join(dir, 'journal.jsonl'),
        wake$,
      });
      const b = bot;

      // trading, and a periodic state write that happened after the bot's fills
      await b.waitUntil(() => b.pipeline.counters.fills >= 2 && b.pipeline.tracker.open().length > 0, 'fills with quotes working', 60_000);
      const tradedAt = Date.now();
      await b.waitUntil(() => (savedState(stateFile)?.savedAt ?? 0) > tradedAt, 'a state write after the fills', 30_000);
      const saved = savedState(stateFile);
      const savedBotOrders = (saved?.clordIndex ?? [])
        .filter(([account]) => (BOT_ACCOUNTS as readonly string[]).includes(account))
        .map(([, , orderId]) => orderId);
      expect(savedBotOrders.length, "the last write holds the bot's orders").toBeGreaterThan(0);

      // SIGKILL: no final write
      const before = {
        reconciliations: b.pipeline.counters.reconciliations,
        fills: b.pipeline.counters.fills,
        logins: b.client.sessionInfo().logins,
        feedChanges: b.stateChanges.length,
      };
      expect((await sim.stop('SIGKILL')).signal).toBe('SIGKILL');
      await b.waitUntil(() => b.pipeline.risk.tradingState.state !== 'active', 'trading restricted while the exchange is down', 30_000);
      const down = b.stateChanges.slice(before.feedChanges);
      expect(down.some((c) => c.cause === 'feed' && (c.to === 'reducing' || c.to === 'halted'))).toBe(true);

      // the same ports, the same state file
      sim = await startSimProcess(configFile);
      expect(sim.ready).toEqual(ready);
      await b.waitUntil(
        () => {
          const feed = b.stateChanges.filter((c) => c.cause === 'feed');
          return feed.at(-1)?.to === 'active' && b.pipeline.risk.tradingState.state === 'active';
        },
        'trading active again after the restart',
        60_000,
      );
      await b.waitUntil(
        () =>
          b.pipeline.counters.reconciliations > before.reconciliations &&
          b.client.sessionInfo().logins > before.logins &&
          b.pipeline.counters.fills > before.fills,
        'reconciled with the restored exchange, logged in again and trading',
        60_000,
      );

      // while trading: open orders and positions equal the exchange's at some quiet moment (re-read on bot events)
      auditor = new GatewayClient({
        gatewayUrl: ready.gateway,
        credentials: { username: 'alice', password: PASSWORD },
        instruments: instrumentCatalog(instruments),
        logger: silentLogger(),
      });
      await auditor.login();
      const reader = auditor;
      let last = 'never compared';
      await new Promise<void>((resolve, reject) => {
        let checking = false;
        const check = () => {
          if (checking || !quiet(b)) return;
          checking = true;
          const openBefore = localOpen(b).join();
          void exchangeView(reader).then(
            (view) => {
              checking = false;
              // the bot moved during the read: compare on the next event
              if (!quiet(b) || localOpen(b).join() !== openBefore) return;
              last = disagreement(b, view);
              if (last === '') done();
            },
            (error: unknown) => {
              checking = false;
              last = String(error);
            },
          );
        };
        const subscription = b.venue.changed$.subscribe(check);
        const deadline = setTimeout(() => {
          subscription.unsubscribe();
          reject(new Error(`the bot never agreed with the exchange while trading: ${last}`));
        }, 60_000);
        const done = () => {
          clearTimeout(deadline);
          subscription.unsubscribe();
          resolve();
        };
        check();
      });

      // halted by the operator: every quote cancelled, nothing moves any more; then the exact comparison
      b.pipeline.risk.tradingState.setState('halted', 'test: operator halt');
      await b.waitUntil(() => b.pipeline.tracker.open().length === 0 && quiet(b), 'the halt cancelled every quote', 60_000);
      const view = await exchangeView(reader);
      expect(view.open, 'orders the exchange still works for the bot').toEqual([]);
      expect(positionsText(b.localPositions())).toBe(positionsText(view.positions));

      // no clord_id on two orders; every exchange order known to the bot and journaled before it was sent
      const byClord = new Map<string, Set<string>>();
      for (const order of view.orders)
        byClord.set(`${order.account} ${order.clordId}`, (byClord.get(`${order.account} ${order.clordId}`) ?? new Set()).add(order.id));
      expect(
        [...byClord].filter(([, ids]) => ids.size > 1),
        'a clord_id on two exchange orders',
      ).toEqual([]);
      expect(
        view.orders.filter((o) => b.pipeline.tracker.get(o.clordId) === undefined).map((o) => o.clordId),
        'exchange orders the bot does not know',
      ).toEqual([]);
      const { repeatedInserts, requested } = journaledRequests(b.journalFile ?? '');
      expect(repeatedInserts, 'an insert journaled twice').toEqual([]);
      expect(
        view.orders.filter((o) => !requested.has(o.clordId)).map((o) => o.clordId),
        'exchange orders with no request line in the journal',
      ).toEqual([]);
      // the restarted exchange is the saved one: the bot's orders of the last write are there
      const restored = new Set(view.orders.map((o) => o.id));
      expect(
        savedBotOrders.filter((id) => !restored.has(id)),
        'saved orders missing after the restart',
      ).toEqual([]);

      expect(b.rejections).toEqual([]);
      wakeOnState.unsubscribe();
      stateWrites.close();
    },
  );
});
