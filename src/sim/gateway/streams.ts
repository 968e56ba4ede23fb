/**
 * The gateway's NDJSON streams in the simulator: create_order_subscription (snapshot of working orders,
 * then executions and cancel rejects for the caller's accounts), create_market_data_subscription (an update
 * per book change with full levels up to the depth, stats and state) and
 * create_instrument_state_change_subscription. Heartbeats keep idle streams alive; `snapshot_only` sends the
 * snapshot and ends. Every open stream is tracked so fault injection can drop them all, and counted per
 * firm: a firm holds at most `sim.gateway.maxStreamsPerFirm` (20) at once, like gRPC's limit; one more is
 * 429 RESOURCE_EXHAUSTED. A client that does not read is cut by the HTTP server (src/sim/http/server.ts).
 */
import { randomUUID } from 'node:crypto';
import { filter, type Subscription } from 'rxjs';
import type { Handler, Router, NdjsonSink } from '../http/router.ts';
import { invalidArgument, SimHttpError } from '../http/errors.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import { checkAccount } from '../exchange/commands.ts';
import { toDomainExecution, toDomainOrder } from '../exchange/to-domain.ts';
import { marketSnapshot } from '../exchange/market-view.ts';
import { MARKET_DATA_DEPTH_DEFAULT, MARKET_DATA_MAX_SYMBOLS } from '../../domain/limits.ts';
import { decodeBody, gateway, scaleLookup } from './wire.ts';
import type { CallerOf } from './trading-routes.ts';
import { firmOf } from './user-store.ts';

export interface StreamSettings {
  heartbeatMs: () => number;
}

/** A firm's claim on one of its stream slots. */
export interface StreamSlot {
  /** Frees the slot (idempotent). */
  release(): void;
}

/**
 * Open streams, so the simulator can drop them (fault injection, tests) and close them on shutdown, and the
 * per-firm count behind `sim.gateway.maxStreamsPerFirm`.
 */
export class StreamRegistry {
  private readonly open = new Set<NdjsonSink>();
  private readonly perFirm = new Map<string, number>();

  constructor(private readonly maxPerFirm: () => number = () => Number.POSITIVE_INFINITY) {}

  /** Takes one of `firm`'s stream slots, or throws 429 RESOURCE_EXHAUSTED when it holds the maximum already. */
  reserve(firm: string): StreamSlot {
    const count = this.perFirm.get(firm) ?? 0;
    const max = this.maxPerFirm();
    if (count >= max)
      throw new SimHttpError(
        'RESOURCE_EXHAUSTED',
        `firm ${firm} already has ${count} streams open, the most allowed (${max} streams); close one first`,
      );
    this.perFirm.set(firm, count + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.perFirm.get(firm) ?? 1) - 1;
        if (left <= 0) this.perFirm.delete(firm);
        else this.perFirm.set(firm, left);
      },
    };
  }

  /** Tracks an open stream until it closes, then frees its slot and runs `cleanup`. */
  track(sink: NdjsonSink, slot: StreamSlot, cleanup: () => void): void {
    this.open.add(sink);
    sink.onClose(() => {
      this.open.delete(sink);
      slot.release();
      cleanup();
    });
  }

  get count(): number {
    return this.open.size;
  }

  /** Ends every open stream from the server side, as a dropped connection would. */
  dropAll(): void {
    for (const sink of [...this.open]) sink.end();
  }
}

function heartbeat(sink: NdjsonSink, everyMs: number, message: () => unknown): () => void {
  const timer = setInterval(() => sink.send(message()), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** What the stream handlers read and where they register their streams. */
interface StreamDeps {
  readonly core: ExchangeCore;
  readonly callerOf: CallerOf;
  readonly settings: StreamSettings;
  readonly registry: StreamRegistry;
  readonly scales: ReturnType<typeof scaleLookup>;
}

/** create_order_subscription: the working orders of the caller's accounts, then their executions and cancel rejects. */
function orderSubscription(deps: StreamDeps): Handler {
  const { core, callerOf, settings, registry, scales } = deps;
  return async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.orderSubscriptionRequest, core);
    for (const account of request.accounts) checkAccount(caller, account);
    const accounts = request.accounts.length > 0 ? request.accounts : caller.accounts;
    const symbols = request.symbols;
    const wanted = (account: string, symbol: string) => accounts.includes(account) && (symbols.length === 0 || symbols.includes(symbol));
    const sessionId = randomUUID();
    const meta = () => ({ sessionId, processedSentTime: core.clock.now() });
    const slot = registry.reserve(firmOf(caller.participant));
    return {
      kind: 'ndjson',
      start(sink) {
        sink.onClose(() => slot.release());
        const orders = accounts.flatMap((account) => core.openOrders({ account })).filter((o) => wanted(o.order.account, o.order.symbol));
        const snapshot = orders.flatMap((o) => {
          const s = core.instrument(o.order.symbol)?.scales;
          const record = core.order(o.order.orderId);
          return s === undefined ? [] : [toDomainOrder(o, s, { fills: record?.fills, lastTradeId: record?.lastTradeId })];
        });
        sink.send(gateway.orderStream.encode({ kind: 'snapshot', orders: snapshot, ...meta() }, scales));
        if (request.snapshotOnly) return sink.end();
        const subscription: Subscription = core.events$.subscribe((event) => {
          if (event.kind === 'execution') {
            const e = event.execution;
            if (!wanted(e.order.account, e.order.symbol)) return;
            const s = core.instrument(e.order.symbol)?.scales;
            if (s === undefined) return;
            sink.send(
              gateway.orderStream.encode(
                {
                  kind: 'update',
                  executions: [toDomainExecution(e, s, { fills: event.fills, lastTradeId: event.lastTradeId })],
                  cancelReject: undefined,
                  ...meta(),
                },
                scales,
              ),
            );
          } else if (event.kind === 'cancelReject') {
            const r = event.reject;
            if (r.account === undefined || !wanted(r.account, r.symbol ?? '')) return;
            const cancelReject = {
              clordId: r.clordId ?? '',
              orderId: r.orderId ?? '',
              text: r.text,
              isReplace: r.isReplace,
              rejectReason: r.reason,
              transactTime: r.transactTime,
            };
            sink.send(gateway.orderStream.encode({ kind: 'update', executions: [], cancelReject, ...meta() }, scales));
          }
        });
        const stopBeat = heartbeat(sink, settings.heartbeatMs(), () =>
          gateway.orderStream.encode({ kind: 'heartbeat', ...meta() }, scales),
        );
        registry.track(sink, slot, () => {
          subscription.unsubscribe();
          stopBeat();
        });
      },
    };
  };
}

/** create_market_data_subscription: each symbol's book, then an update per book change (full levels up to the depth). */
function marketDataSubscription(deps: StreamDeps): Handler {
  const { core, callerOf, settings, registry, scales } = deps;
  return async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.marketDataSubscriptionRequest, core);
    if (request.symbols.length === 0) throw invalidArgument('symbols is required: name at least one symbol');
    if (request.symbols.length > MARKET_DATA_MAX_SYMBOLS)
      throw invalidArgument(`at most ${MARKET_DATA_MAX_SYMBOLS} symbols per stream, got ${request.symbols.length}`);
    for (const symbol of request.symbols) if (core.instrument(symbol) === undefined) throw invalidArgument(`unknown symbol ${symbol}`);
    const depth = request.depth <= 0 ? MARKET_DATA_DEPTH_DEFAULT : request.depth;
    const symbols = new Set(request.symbols);
    const update = (symbol: string) => {
      const book = marketSnapshot(core, symbol, depth);
      return book === undefined ? undefined : gateway.marketDataStream.encode({ kind: 'update', ...book }, scales);
    };
    const slot = registry.reserve(firmOf(caller.participant));
    return {
      kind: 'ndjson',
      start(sink) {
        sink.onClose(() => slot.release());
        for (const symbol of symbols) {
          const line = update(symbol);
          if (line !== undefined) sink.send(line);
        }
        if (request.snapshotOnly) return sink.end();
        const subscription = core.events$.pipe(filter((e) => e.kind === 'book' && symbols.has(e.symbol))).subscribe((event) => {
          const line = event.kind === 'book' ? update(event.symbol) : undefined;
          if (line !== undefined) sink.send(line);
        });
        const stopBeat = heartbeat(sink, settings.heartbeatMs(), () => gateway.marketDataStream.encode({ kind: 'heartbeat' }));
        registry.track(sink, slot, () => {
          subscription.unsubscribe();
          stopBeat();
        });
      },
    };
  };
}

/** create_instrument_state_change_subscription: every (or each named) instrument's state, then each change. */
function instrumentStateSubscription(deps: StreamDeps): Handler {
  const { core, callerOf, settings, registry } = deps;
  return async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.instrumentStateSubscriptionRequest, core);
    const symbols = new Set(request.symbols);
    const slot = registry.reserve(firmOf(caller.participant));
    return {
      kind: 'ndjson',
      start(sink) {
        sink.onClose(() => slot.release());
        for (const instrument of core.instruments()) {
          if (symbols.size > 0 && !symbols.has(instrument.symbol)) continue;
          sink.send(
            gateway.instrumentStateStream.encode({
              kind: 'update',
              symbol: instrument.symbol,
              state: core.instrumentState(instrument.symbol),
              text: '',
              transactTime: core.clock.now(),
            }),
          );
        }
        const subscription = core.events$.subscribe((event) => {
          if (event.kind !== 'instrument' || event.event.kind !== 'STATE') return;
          if (symbols.size > 0 && !symbols.has(event.event.symbol)) return;
          sink.send(
            gateway.instrumentStateStream.encode({
              kind: 'update',
              symbol: event.event.symbol,
              state: event.event.state,
              text: '',
              transactTime: event.event.time,
            }),
          );
        });
        const stopBeat = heartbeat(sink, settings.heartbeatMs(), () => gateway.instrumentStateStream.encode({ kind: 'heartbeat' }));
        registry.track(sink, slot, () => {
          subscription.unsubscribe();
          stopBeat();
        });
      },
    };
  };
}

export function registerGatewayStreams(
  router: Router,
  core: ExchangeCore,
  callerOf: CallerOf,
  settings: StreamSettings,
  registry: StreamRegistry,
): void {
  const base = '/api/v1beta1';
  const deps: StreamDeps = { core, callerOf, settings, registry, scales: scaleLookup(core) };
  router.post(`${base}/create_order_subscription`, orderSubscription(deps));
  router.post(`${base}/create_market_data_subscription`, marketDataSubscription(deps));
  router.post(`${base}/create_instrument_state_change_subscription`, instrumentStateSubscription(deps));
}
