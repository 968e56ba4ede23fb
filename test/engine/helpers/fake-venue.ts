/**
 * A scriptable in-memory Venue for unit tests of the engine: every call is recorded and answered by the
 * test (`resolve`/`reject` on the recorded call), market data and order updates are Subjects the test
 * pushes into. Nothing touches the network. `startOnVenue` runs the pipeline on one: one account and symbol, a
 * fresh portfolio, the given risk limits.
 */
import { Subject } from 'rxjs';
import type { Instrument } from '../../../src/domain/index.ts';
import type { VirtualClock } from '../../../src/engine/clock.ts';
import { startPipeline, type RunningPipeline } from '../../../src/engine/pipeline/index.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import { parseRiskConfig, type RiskConfigInput } from '../../../src/engine/risk/index.ts';
import type { AnyStrategy } from '../../../src/engine/strategy/define-strategy.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../../src/domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../../../src/engine/venue.ts';

export type CallKind = 'insert' | 'cancel' | 'replace' | 'cross';

export interface RecordedCall<R = unknown> {
  readonly kind: CallKind;
  readonly requests: readonly R[];
  resolve(value?: unknown): void;
  reject(error: unknown): void;
}

export class FakeVenue implements Venue {
  readonly name = 'fake';
  readonly market = new Subject<MarketDataEvent>();
  readonly orders = new Subject<OrderStreamEvent>();
  readonly calls: RecordedCall[] = [];
  snapshotValue: VenueSnapshot = { openOrders: [], positions: [], balances: [] };

  constructor(private readonly refdata: readonly Instrument[] = []) {}

  callsOf<R>(kind: CallKind): RecordedCall<R>[] {
    return this.calls.filter((c) => c.kind === kind) as RecordedCall<R>[];
  }

  async instruments(symbols: readonly string[]): Promise<readonly Instrument[]> {
    return this.refdata.filter((i) => symbols.includes(i.symbol));
  }

  marketData(): Subject<MarketDataEvent> {
    return this.market;
  }

  orderUpdates(): Subject<OrderStreamEvent> {
    return this.orders;
  }

  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    return this.record('insert', requests) as Promise<readonly string[]>;
  }

  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    return this.record('cancel', requests) as Promise<void>;
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    return this.record('replace', requests) as Promise<void>;
  }

  cross(request: VenueCrossRequest): Promise<readonly string[]> {
    return this.record('cross', [request]) as Promise<readonly string[]>;
  }

  async snapshot(): Promise<VenueSnapshot> {
    return this.snapshotValue;
  }

  async close(): Promise<void> {
    this.market.complete();
    this.orders.complete();
  }

  private record(kind: CallKind, requests: readonly unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.calls.push({ kind, requests, resolve, reject });
    });
  }
}

export interface StartOnVenueOptions {
  readonly venue: Venue;
  readonly clock: VirtualClock;
  readonly strategy: AnyStrategy;
  readonly account: string;
  readonly symbol: string;
  readonly risk?: RiskConfigInput;
}

/** The pipeline on a scripted venue, on a virtual clock, with empty strategy params. */
export function startOnVenue(o: StartOnVenueOptions): Promise<RunningPipeline> {
  return startPipeline({
    venue: o.venue,
    clock: o.clock,
    log: silentLogger(),
    strategy: o.strategy,
    params: {},
    risk: parseRiskConfig(o.risk ?? {}),
    portfolio: portfolioPort(new Portfolio({ clock: o.clock })),
    account: o.account,
    accounts: [o.account],
    symbols: [o.symbol],
  });
}
