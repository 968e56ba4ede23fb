/**
 * The live bot for reliability tests, against any gateway URL (the embedded simulator of live-bot.ts, or a
 * `tradebot sim` child process): the real GatewayClient (short timeouts and backoffs), the gateway's NDJSON
 * streams or given gRPC streams, and the pipeline assembled the way src/bot/live/run-live.ts does it
 * (GatewayVenue, Portfolio, startPipeline, the demo market maker) on the wall clock, with the order
 * journal in the path (a FileJournal on a temp file, as `bot.journal` gives) unless the test says otherwise.
 *
 * What the checks need is recorded from the start: the fills the tracker derived, the differences each
 * reconciliation found, the trading state changes, every retry of the client and any unhandled promise
 * rejection. `waitUntil` re-checks its predicate on every market/order event, venue answer and `wake$`
 * event, never by sleeping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { merge, type Observable } from 'rxjs';
import type { Logger } from 'pino';
import type { Instrument } from '../../../src/domain/index.ts';
import { GatewayClient, instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import { liveClock } from '../../../src/engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../../../src/engine/pipeline/index.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort, type PortfolioPort } from '../../../src/engine/portfolio-port.ts';
import { GatewayVenue } from '../../../src/bot/venues/gateway-venue.ts';
import { FileJournal, type Journal } from '../../../src/engine/journal/index.ts';
import type { StreamSources } from '../../../src/bot/live/stream-transport.ts';
import type { TradingStateChange } from '../../../src/engine/risk/index.ts';
import type { TradebotConfig } from '../../../src/config/index.ts';
import marketMaker from '../../../strategies/market-maker.ts';
import { WatchedVenue } from './watched-venue.ts';

export const SYMBOL = 'RAIN-NYC-2026-12-01';
export const ALICE_MAIN = 'firms/demo/accounts/alice-main';
export const ALICE_HEDGE = 'firms/demo/accounts/alice-hedge';
export const BOT_ACCOUNTS = [ALICE_MAIN, ALICE_HEDGE] as const;
export const PARTICIPANT = 'firms/demo/users/alice';

/** A signed position per "account symbol". */
export type Positions = Map<string, number>;

export const positionKey = (account: string, symbol: string) => `${account} ${symbol}`;

export interface BotRigOptions {
  gatewayUrl: string;
  password: string;
  instruments: readonly Instrument[];
  risk: TradebotConfig['risk'];
  logger: Logger;
  /** gRPC market data and order updates; absent: the gateway's NDJSON streams. */
  streams?: StreamSources;
  /** Client per-call deadline, ms (default 2000). */
  timeoutMs?: number;
  /** Client stream silence watchdog, ms (default 3000). */
  silenceTimeoutMs?: number;
  /** The order journal file (default: a fresh temp file); false: no journal. */
  journal?: string | false;
  /** More events that should re-check `waitUntil` predicates (e.g. the exchange's own events). */
  wake$?: Observable<unknown>;
}

export interface BotRig {
  readonly pipeline: RunningPipeline;
  readonly portfolio: Portfolio;
  readonly port: PortfolioPort;
  readonly client: GatewayClient;
  readonly venue: WatchedVenue;
  /** The journal file, when the bot runs with one. */
  readonly journalFile: string | undefined;
  /** Every trading state change since the start. */
  readonly stateChanges: TradingStateChange[];
  /** Unhandled promise rejections seen since the start. */
  readonly rejections: unknown[];
  /** Differences each reconciliation found between the local view and the exchange. */
  readonly reconcileDifferences: string[];
  /** Sum of the fills the tracker derived, by "account symbol". */
  readonly trackedFills: Positions;
  /** Every retry the gateway client made: the path and the error code of the failed attempt. */
  readonly retries: { path: string; code: string }[];
  /** Resolves once `predicate` holds, re-checked on every event; rejects after `timeoutMs` with `what`. */
  waitUntil(predicate: () => boolean, what: string, timeoutMs?: number, describe?: () => string): Promise<void>;
  /** The portfolio's positions of the bot's accounts. */
  localPositions(): Positions;
  close(): Promise<void>;
}

export async function startBotRig(options: BotRigOptions): Promise<BotRig> {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  const log = options.logger;
  const retries: { path: string; code: string }[] = [];
  const client = new GatewayClient({
    gatewayUrl: options.gatewayUrl,
    credentials: { username: 'alice', password: options.password },
    instruments: instrumentCatalog(options.instruments),
    timeoutMs: options.timeoutMs ?? 2000,
    retry: {
      maxAttempts: 5,
      baseDelayMs: 20,
      maxDelayMs: 300,
      onRetry: (info) => void retries.push({ path: info.request.path, code: String((info.error as { code?: unknown }).code) }),
    },
    streams: { baseDelayMs: 20, maxDelayMs: 300, silenceTimeoutMs: options.silenceTimeoutMs ?? 3000 },
    logger: log.child({ component: 'gateway' }),
  });
  const journalDir = options.journal === undefined ? mkdtempSync(path.join(tmpdir(), 'tradebot-rig-journal-')) : undefined;
  const journalFile = options.journal === false ? undefined : (options.journal ?? path.join(journalDir ?? '', 'journal.jsonl'));
  let journal: Journal | undefined;
  let pipeline: RunningPipeline | undefined;
  const cleanup = async () => {
    await journal?.close().catch(() => undefined);
    await client.close().catch(() => undefined);
    if (journalDir !== undefined) rmSync(journalDir, { recursive: true, force: true });
    process.off('unhandledRejection', onRejection);
  };
  try {
    await client.login();
    const sources = options.streams;
    const venue = new WatchedVenue(
      new GatewayVenue({
        client,
        instruments: options.instruments,
        ...(sources === undefined
          ? {}
          : {
              marketData: (symbols: readonly string[]) => sources.marketData(symbols),
              orderUpdates: (accounts: readonly string[]) => sources.orderUpdates(accounts),
            }),
      }),
    );
    const clock = liveClock();
    const portfolio = new Portfolio({ clock });
    const inner = portfolioPort(portfolio);
    const reconcileDifferences: string[] = [];
    const port: PortfolioPort = {
      ...inner,
      reconcile: (positions, balances) => {
        const differences = inner.reconcile(positions, balances);
        reconcileDifferences.push(...differences);
        return differences;
      },
    };
    journal = journalFile === undefined ? undefined : FileJournal.open(journalFile, { warnings: log });
    const params = marketMaker.params.parse({
      symbols: [SYMBOL],
      halfSpread: '0.01',
      quoteQty: '5',
      maxInventory: '25',
      skewPerContract: '0.002',
    });
    pipeline = await startPipeline({
      venue,
      clock,
      log: log.child({ component: 'bot' }),
      strategy: marketMaker,
      params,
      risk: options.risk,
      portfolio: port,
      account: ALICE_MAIN,
      accounts: BOT_ACCOUNTS,
      symbols: [SYMBOL],
      ...(journal === undefined ? {} : { journal }),
    });
    const running = pipeline;
    const stateChanges: TradingStateChange[] = [];
    const trackedFills: Positions = new Map();
    const subscriptions = [
      running.risk.tradingState.changes$.subscribe((change) => stateChanges.push(change)),
      running.tracker.fills$.subscribe((fill) => {
        const k = positionKey(fill.account, fill.symbol);
        trackedFills.set(k, (trackedFills.get(k) ?? 0) + (fill.side === 'BUY' ? 1 : -1) * fill.qty.toNumber());
      }),
    ];
    const wake$ = options.wake$ === undefined ? venue.changed$ : merge(venue.changed$, options.wake$);

    let closed = false;
    return {
      pipeline: running,
      portfolio,
      port,
      client,
      venue,
      journalFile,
      stateChanges,
      rejections,
      reconcileDifferences,
      trackedFills,
      retries,
      waitUntil: (predicate, what, timeoutMs = 30_000, describe) =>
        new Promise<void>((resolve, reject) => {
          if (predicate()) return resolve();
          const finish = (error?: Error) => {
            clearTimeout(deadline);
            subscription.unsubscribe();
            if (error) reject(error);
            else resolve();
          };
          const subscription = wake$.subscribe(() => {
            try {
              if (predicate()) finish();
            } catch (error) {
              finish(error as Error);
            }
          });
          const deadline = setTimeout(() => {
            finish(
              new Error(
                `timed out after ${timeoutMs} ms waiting until ${what}${describe === undefined ? '' : `: ${describe()}`} ` +
                  `(counters ${JSON.stringify(running.counters)})`,
              ),
            );
          }, timeoutMs);
        }),
      localPositions: () => new Map(port.positions().map((p) => [positionKey(p.account, p.symbol), p.qty.toNumber()])),
      async close() {
        if (closed) return;
        closed = true;
        await running.stop().catch(() => undefined);
        for (const s of subscriptions) s.unsubscribe();
        await cleanup();
      },
    };
  } catch (error) {
    await pipeline?.stop().catch(() => undefined);
    await cleanup();
    throw error;
  }
}
