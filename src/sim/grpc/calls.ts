/**
 * Typed adapters between grpc-js's untyped handlers and the services' handlers. A handler gets the request
 * as `unknown` (it validates it with the protocol codecs) and the authenticated caller; what it returns or
 * sends is a message object for the method's response type. Errors become gRPC statuses (errors.ts).
 *
 * Server streams get a `StreamSink`: `send` (false once closed), `end`, `fail`, timers and cleanups that
 * run exactly once when the stream closes for any reason (end, failure, client cancel, server drop).
 * A stream takes one of its firm's slots (RESOURCE_EXHAUSTED beyond the limit) and is registered so
 * `dropAll()` can end it with UNAVAILABLE. A client that stops reading is cut off with RESOURCE_EXHAUSTED
 * once `maxQueuedMessages` written messages are not yet flushed to the connection (they pile up behind
 * HTTP/2 flow control; it reconnects and resnapshots) instead of growing the server's memory forever.
 */
import type { Logger } from 'pino';
import type { ServerUnaryCall, ServerWritableStream, handleServerStreamingCall, handleUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import type { MethodRef } from '../../exchange/grpc/protocol/index.ts';
import { type GrpcCaller, type GrpcTokenVerifier, authenticate } from './auth.ts';
import { resourceExhausted, toServiceStatus, unavailable } from './errors.ts';
import type { StreamRegistry } from './stream-registry.ts';

export type Json = Record<string, unknown>;

export interface CallDeps {
  readonly verifyToken: GrpcTokenVerifier;
  readonly registry: StreamRegistry;
  readonly logger: Logger;
  readonly maxQueuedMessages: number;
  /** Fault injection (src/sim/faults): wraps each stream's sink; absent: the sink as is. */
  readonly wrapStream?: ((sink: StreamSink, method: string) => StreamSink) | undefined;
}

export interface StreamSink {
  readonly caller: GrpcCaller;
  readonly closed: boolean;
  /** Queues a message; false when the stream is closed (or was just closed as a slow consumer). */
  send(message: Json): boolean;
  /** Ends the stream with OK. */
  end(): void;
  /** Ends the stream with the status for `error`. */
  fail(error: unknown): void;
  /** Runs `cleanup` once when the stream closes (immediately if it already has). */
  onClose(cleanup: () => void): void;
  /** Calls `tick` every `ms` while the stream is open. */
  every(ms: number, tick: () => void): void;
}

export type UnaryHandler = (request: unknown, caller: GrpcCaller) => Json | Promise<Json>;
export type StreamHandler = (request: unknown, sink: StreamSink) => void;

const label = (ref: MethodRef): string => `${ref.service}.${ref.method}`;

function logFailure(deps: CallDeps, ref: MethodRef, error: unknown, firm: string | undefined): ReturnType<typeof toServiceStatus> {
  const result = toServiceStatus(error);
  if (result.internal) deps.logger.error({ method: label(ref), firm, err: error }, 'grpc call failed');
  else deps.logger.debug({ method: label(ref), firm, code: result.code }, 'grpc call refused');
  return result;
}

export function unaryMethod(deps: CallDeps, ref: MethodRef, handler: UnaryHandler): handleUnaryCall<unknown, Json> {
  return (call: ServerUnaryCall<unknown, Json>, callback: sendUnaryData<Json>) => {
    let firm: string | undefined;
    const run = async (): Promise<void> => {
      try {
        const caller = await authenticate(call.metadata, deps.verifyToken, ref, call.getPeer());
        firm = caller.firm;
        callback(null, await handler(call.request, caller));
      } catch (error) {
        const { code, details } = logFailure(deps, ref, error, firm);
        callback({ code, details });
      }
    };
    void run();
  };
}

class Sink implements StreamSink {
  closed = false;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    readonly caller: GrpcCaller,
    private readonly call: ServerWritableStream<unknown, Json>,
    private readonly deps: CallDeps,
    private readonly ref: MethodRef,
  ) {}

  send(message: Json): boolean {
    if (this.closed) return false;
    if (this.call.writableLength >= this.deps.maxQueuedMessages) {
      this.fail(resourceExhausted(`slow consumer: ${this.call.writableLength} messages waiting; reconnect and resnapshot`));
      return false;
    }
    this.call.write(message);
    return true;
  }

  end(): void {
    if (this.close()) this.call.end();
  }

  fail(error: unknown): void {
    if (!this.close()) return;
    const { code, details } = logFailure(this.deps, this.ref, error, this.caller.firm);
    this.call.emit('error', { code, details });
  }

  onClose(cleanup: () => void): void {
    if (this.closed) cleanup();
    else this.cleanups.push(cleanup);
  }

  every(ms: number, tick: () => void): void {
    const timer = setInterval(tick, ms);
    timer.unref();
    this.onClose(() => clearInterval(timer));
  }

  /** Marks the stream closed and runs the cleanups; false if it already was. */
  close(): boolean {
    if (this.closed) return false;
    this.closed = true;
    for (const cleanup of this.cleanups.splice(0)) {
      try {
        cleanup();
      } catch (error) {
        this.deps.logger.error({ method: label(this.ref), err: error }, 'grpc stream cleanup failed');
      }
    }
    return true;
  }
}

export function streamMethod(deps: CallDeps, ref: MethodRef, handler: StreamHandler): handleServerStreamingCall<unknown, Json> {
  return (call: ServerWritableStream<unknown, Json>) => {
    const refuse = (error: unknown, firm?: string): void => {
      const { code, details } = logFailure(deps, ref, error, firm);
      call.emit('error', { code, details });
    };
    const run = async (): Promise<void> => {
      let caller: GrpcCaller;
      try {
        caller = await authenticate(call.metadata, deps.verifyToken, ref, call.getPeer());
      } catch (error) {
        refuse(error);
        return;
      }
      if (call.cancelled) return;
      const sink = new Sink(caller, call, deps, ref);
      const slot = deps.registry.acquire(caller.firm, () => sink.fail(unavailable('stream dropped by the server')));
      if (slot === undefined) {
        refuse(
          resourceExhausted(`firm ${caller.firm} already has ${deps.registry.limit} open streams (the limit); close one first`),
          caller.firm,
        );
        return;
      }
      sink.onClose(() => slot.release());
      call.on('cancelled', () => sink.close());
      call.on('finish', () => sink.close());
      try {
        handler(call.request, deps.wrapStream === undefined ? sink : deps.wrapStream(sink, ref.method));
      } catch (error) {
        sink.fail(error);
      }
    };
    void run();
  };
}
