/**
 * Stream faults: every stream the simulator opens (gateway NDJSON and gRPC) is wrapped here, so the
 * simulator can stall the open ones (they stop writing, heartbeats included, but stay connected, until the
 * client's silence watchdog gives up on them) and garble the order streams (an execution update sent twice,
 * or held back and sent after the next one: adjacent executions swapped). A held update that no other
 * execution follows within HOLD_MS is sent on its own; a server-side end sends it first. Without a fault
 * set a wrapped stream writes exactly what the handler sends.
 */
import type { NdjsonSink } from '../http/router.ts';
import type { StreamSink } from '../grpc/calls.ts';
import type { Random } from '../activity/random.ts';
import type { FaultStats } from './stats.ts';

/** Longest time an execution update is held back waiting for one to swap with, ms. */
export const HOLD_MS = 100;

export interface OrderStreamGarbling {
  duplicateProbability: number;
  reorderProbability: number;
}

/** An order stream update carrying executions, in the gateway's (`result.update`) or gRPC's (`update`) shape. */
export function isExecutionUpdate(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const outer = message as Record<string, unknown>;
  const body = (typeof outer['result'] === 'object' && outer['result'] !== null ? outer['result'] : outer) as Record<string, unknown>;
  const update = body['update'];
  if (typeof update !== 'object' || update === null) return false;
  const executions = (update as Record<string, unknown>)['executions'];
  return Array.isArray(executions) && executions.length > 0;
}

/** One open stream under fault injection: decides, message by message, what reaches the wire. */
class FaultyDelivery {
  stalled = false;
  private held: unknown = undefined;
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly orderStream: boolean,
    private readonly faults: StreamFaults,
    private readonly write: (message: unknown) => void,
  ) {}

  send(message: unknown): void {
    if (this.stalled) return;
    const garble = this.orderStream ? this.faults.garbling : undefined;
    if (garble === undefined || !isExecutionUpdate(message)) {
      this.flush();
      this.write(message);
      return;
    }
    if (this.held !== undefined) {
      const held = this.held;
      this.release();
      this.write(message);
      this.write(held);
      this.faults.stats.reordered += 1;
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
      this.faults.stats.duplicated += 1;
    }
  }

  /** Sends a held update now (before a server-side end, a heartbeat or another message). */
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
  /** Order stream garbling in force (undefined: none). */
  garbling: OrderStreamGarbling | undefined;
  private readonly open = new Set<FaultyDelivery>();

  constructor(
    readonly random: Random,
    readonly stats: FaultStats,
  ) {}

  /** Streams open now. */
  get count(): number {
    return this.open.size;
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
    const delivery = this.track(path.endsWith('/create_order_subscription'), (m) => sink.send(m), (close) => sink.onClose(close));
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
    const delivery = this.track(method === 'CreateOrderSubscription', (m) => void sink.send(m as Record<string, unknown>), (close) => sink.onClose(close));
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

  private track(orderStream: boolean, write: (message: unknown) => void, onClose: (listener: () => void) => void): FaultyDelivery {
    const delivery = new FaultyDelivery(orderStream, this, write);
    this.open.add(delivery);
    onClose(() => {
      this.open.delete(delivery);
      delivery.release();
    });
    return delivery;
  }
}
