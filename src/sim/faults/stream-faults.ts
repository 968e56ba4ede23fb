/**
 * Stream faults: every stream the simulator opens (gateway NDJSON and gRPC) is wrapped here, so the
 * simulator can stall the open ones (they stop writing, heartbeats included, but stay connected, until the
 * client's silence watchdog gives up on them) and garble two kinds of stream: order streams (their
 * execution updates) and market data streams (their book updates). Garbling sends a message twice, or
 * holds it back and sends it after the next one of its kind (adjacent messages swapped). A held message
 * that no other follows within HOLD_MS is sent on its own; any other message (a heartbeat, a snapshot) and
 * a server-side end send it first. Without a fault set a wrapped stream writes exactly what the handler sends.
 */
import type { NdjsonSink } from '../http/router.ts';
import type { StreamSink } from '../grpc/calls.ts';
import type { Random } from '../activity/random.ts';
import type { FaultStats } from './stats.ts';

/** Longest time a message is held back waiting for one to swap with, ms. */
export const HOLD_MS = 100;

/** How often a garbled stream sends a message twice, or swaps it with the next one (0..1 each). */
export interface StreamGarbling {
  duplicateProbability: number;
  reorderProbability: number;
}

/** The streams garbling applies to: order streams (execution updates) and market data (book updates). */
export type GarbledKind = 'orders' | 'marketData';

/** The body of a stream message: `result` of a gateway NDJSON line, or the gRPC message itself. */
function bodyOf(message: unknown): Record<string, unknown> | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const outer = message as Record<string, unknown>;
  const result = outer['result'];
  return (typeof result === 'object' && result !== null ? result : outer) as Record<string, unknown>;
}

function updateOf(message: unknown): Record<string, unknown> | undefined {
  const update = bodyOf(message)?.['update'];
  return typeof update === 'object' && update !== null ? (update as Record<string, unknown>) : undefined;
}

/** An order stream update carrying executions, in the gateway's (`result.update`) or gRPC's (`update`) shape. */
export function isExecutionUpdate(message: unknown): boolean {
  const executions = updateOf(message)?.['executions'];
  return Array.isArray(executions) && executions.length > 0;
}

/** A market data book update (`update` with a `symbol`), in the gateway's or gRPC's shape; not a heartbeat. */
export function isBookUpdate(message: unknown): boolean {
  return typeof updateOf(message)?.['symbol'] === 'string';
}

const GARBLED: Record<GarbledKind, (message: unknown) => boolean> = { orders: isExecutionUpdate, marketData: isBookUpdate };

/** Which kind of garbled stream a gateway path or a gRPC method is (undefined: never garbled). */
export function garbledKindOf(pathOrMethod: string): GarbledKind | undefined {
  if (pathOrMethod.endsWith('/create_order_subscription') || pathOrMethod === 'CreateOrderSubscription') return 'orders';
  if (pathOrMethod.endsWith('/create_market_data_subscription') || pathOrMethod === 'CreateMarketDataSubscription') return 'marketData';
  return undefined;
}

/** One open stream under fault injection: decides, message by message, what reaches the wire. */
class FaultyDelivery {
  stalled = false;
  private held: unknown = undefined;
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly kind: GarbledKind | undefined,
    private readonly faults: StreamFaults,
    private readonly write: (message: unknown) => void,
  ) {}

  send(message: unknown): void {
    if (this.stalled) return;
    const kind = this.kind;
    const garble = kind === undefined ? undefined : this.faults.garbling[kind];
    if (kind === undefined || garble === undefined || !GARBLED[kind](message)) {
      this.flush();
      this.write(message);
      return;
    }
    if (this.held !== undefined) {
      const held = this.held;
      this.release();
      this.write(message);
      this.write(held);
      this.faults.tally(kind, 'reordered');
      return;
    }
    if (this.faults.random.chance(garble.reorderProbability)) {
      this.held = message;
      this.holdTimer = setTimeout(() => this.flush(), HOLD_MS);
      this.holdTimer.unref();
      return;
    }
    this.write(message);
    if (this.faults.random.chance(garble.duplicateProbability)) {
      this.write(message);
      this.faults.tally(kind, 'duplicated');
    }
  }

  /** Sends a held message now (before a server-side end, a heartbeat or another message). */
  flush(): void {
    if (this.held === undefined) return;
    const held = this.held;
    this.release();
    if (!this.stalled) this.write(held);
  }

  release(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.held = undefined;
  }
}

/** The open streams and the stream faults in force. */
export class StreamFaults {
  /** Garbling in force per kind of stream (absent: none). */
  garbling: Partial<Record<GarbledKind, StreamGarbling>> = {};
  private readonly open = new Set<FaultyDelivery>();

  constructor(
    readonly random: Random,
    readonly stats: FaultStats,
  ) {}

  /** Streams open now. */
  get count(): number {
    return this.open.size;
  }

  /** Counts a garbled message in the stats. */
  tally(kind: GarbledKind, what: 'duplicated' | 'reordered'): void {
    if (kind === 'orders') this.stats[what] += 1;
    else if (what === 'duplicated') this.stats.marketDataDuplicated += 1;
    else this.stats.marketDataReordered += 1;
  }

  /** Every stream open now stops writing, and stays connected until either side ends it. */
  stallAll(): number {
    let stalled = 0;
    for (const delivery of this.open) {
      if (delivery.stalled) continue;
      delivery.stalled = true;
      delivery.release();
      stalled += 1;
    }
    this.stats.stalledStreams += stalled;
    return stalled;
  }

  /** The gateway's NDJSON stream `path`, wrapped. */
  wrapNdjson(path: string, sink: NdjsonSink): NdjsonSink {
    const delivery = this.track(
      garbledKindOf(path),
      (m) => sink.send(m),
      (close) => sink.onClose(close),
    );
    return {
      get closed() {
        return sink.closed;
      },
      send: (message) => delivery.send(message),
      end: (error) => {
        delivery.flush();
        sink.end(error);
      },
      onClose: (listener) => sink.onClose(listener),
    };
  }

  /** A gRPC server stream of `method`, wrapped. */
  wrapGrpc(method: string, sink: StreamSink): StreamSink {
    const delivery = this.track(
      garbledKindOf(method),
      (m) => void sink.send(m as Record<string, unknown>),
      (close) => sink.onClose(close),
    );
    return {
      get caller() {
        return sink.caller;
      },
      get closed() {
        return sink.closed;
      },
      send: (message) => {
        if (sink.closed) return false;
        delivery.send(message);
        return true;
      },
      end: () => {
        delivery.flush();
        sink.end();
      },
      fail: (error) => sink.fail(error),
      onClose: (cleanup) => sink.onClose(cleanup),
      every: (ms, tick) => sink.every(ms, tick),
    };
  }

  private track(kind: GarbledKind | undefined, write: (message: unknown) => void, onClose: (listener: () => void) => void): FaultyDelivery {
    const delivery = new FaultyDelivery(kind, this, write);
    this.open.add(delivery);
    onClose(() => {
      this.open.delete(delivery);
      delivery.release();
    });
    return delivery;
  }
}
