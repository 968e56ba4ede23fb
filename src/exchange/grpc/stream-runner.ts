/**
 * The machinery shared by the gRPC client's streams, the gRPC twin of the gateway's stream runner: each
 * attempt takes an access token (`getToken()`), builds its request afresh (so a reconnect resubscribes
 * with the latest resume token), opens the server stream and decodes every message into typed items (a
 * message that does not decode becomes an `invalidMessage` item, not a dead stream). `resilientStream`
 * keeps it alive: reconnect with backoff and jitter, silence watchdog (default 180 s), deduplication by
 * key across reconnects, and on UNAUTHENTICATED `getToken(true, refused)` (a forced refresh of the token the
 * refused attempt carried) before the next attempt. Lifecycle events are the same `connected` /
 * `disconnected` events the gateway client emits.
 *
 * Fatal (the Observable errors): rejections (INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION, ...),
 * PERMISSION_DENIED, config problems, a closed client, and UNAUTHENTICATED after the refreshes ran out.
 * Everything else (UNAVAILABLE, CANCELLED, RESOURCE_EXHAUSTED, silence, a clean end) reconnects.
 */
import { catchError, defer, from, map, mergeMap, switchMap, throwError } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Logger } from 'pino';
import { isTradebotError } from '../../errors.ts';
import { defaultIsFatal, resilientStream } from '../transport/index.ts';
import type { RandomSource, StreamEvent } from '../transport/index.ts';
import type { DisconnectedEvent, InvalidMessageEvent, LifecycleEvent } from '../../domain/stream-events.ts';
import { type GrpcChannel, bearerMetadata } from './channel.ts';
import { GrpcClientErrorCode, badResponse } from './errors.ts';
import type { MethodRef } from './protocol/index.ts';

/**
 * The access token; `forceRefresh` after the server answered UNAUTHENTICATED to `rejected` (the token that
 * call carried: a source shared by concurrent calls drops only that one, never a newer token another caller
 * already got).
 */
export type TokenSource = (forceRefresh?: boolean, rejected?: string) => Promise<string>;

export interface GrpcStreamOptions {
  /** Silence (not even a heartbeat) after which a stream is reconnected, ms. Default 180 000; 0 disables. */
  readonly silenceTimeoutMs?: number;
  /** Reconnect backoff: first ceiling and largest ceiling, ms. Defaults 500 and 30 000. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Consecutive failed attempts (no message) before giving up. Default Infinity. */
  readonly maxConsecutiveFailures?: number;
  /** UNAUTHENTICATED answers in a row (each after a forced refresh) before giving up. Default 3. */
  readonly maxConsecutiveAuthFailures?: number;
  /** Ids remembered for deduplication. Default 10 000. */
  readonly dedupeCapacity?: number;
}

export interface GrpcStreamDeps {
  readonly channel: GrpcChannel;
  readonly getToken: TokenSource;
  readonly scheduler: SchedulerLike;
  readonly random: RandomSource;
  readonly options: GrpcStreamOptions;
  readonly logger: Logger | undefined;
  /** Emits when a token was obtained (the venue is reachable): a stream waiting out a backoff reconnects sooner. */
  readonly wake?: Observable<unknown>;
}

export type Decoded<I> = I | InvalidMessageEvent;

export interface GrpcStreamSpec<I> {
  /** For errors and logs, e.g. `MarketDataSubscriptionAPI.CreateMarketDataSubscription`. */
  readonly name: string;
  readonly method: MethodRef;
  /** The request message, built for each attempt. */
  readonly request: () => object;
  /** One message -> items (an order update with two executions gives two items). */
  readonly decode: (message: unknown) => readonly I[];
  /** Dedupe key of an item (undefined: never dropped). */
  readonly dedupeKey?: (item: I) => string | undefined;
  /** True for snapshot-only requests: the server ends the stream after the snapshot. */
  readonly expectCompletion?: boolean;
  /** Handles a call error inside the attempt (e.g. an unusable resume token): what to emit instead, or undefined to fail. */
  readonly recover?: (error: unknown, reopen: () => Observable<Decoded<I>>) => Observable<Decoded<I>> | undefined;
}

export function isFatalGrpcStreamError(error: unknown): boolean {
  return defaultIsFatal(error) || (isTradebotError(error) && error.code === GrpcClientErrorCode.Closed);
}

function decodeMessage<I>(name: string, message: unknown, decode: (message: unknown) => readonly I[]): readonly Decoded<I>[] {
  try {
    return decode(message);
  } catch (error) {
    return [{ type: 'invalidMessage', error: badResponse(name, error) }];
  }
}

function isInvalid(item: unknown): item is InvalidMessageEvent {
  return typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'invalidMessage';
}

/** A resilient, authenticated gRPC server stream of `spec`'s items, with lifecycle events. */
export function runGrpcStream<I>(deps: GrpcStreamDeps, spec: GrpcStreamSpec<I>): Observable<LifecycleEvent | Decoded<I>> {
  return defer(() => {
    /** The token of the latest attempt (what an UNAUTHENTICATED answer refused). */
    let used: string | undefined;
    const open = (): Observable<Decoded<I>> =>
      from(deps.getToken(false)).pipe(
        switchMap((token) => {
          used = token;
          return deps.channel.serverStream(spec.method, spec.request(), bearerMetadata(token));
        }),
        mergeMap((message) => decodeMessage(spec.name, message, spec.decode)),
      );
    const recover = spec.recover;
    const attempt = (): Observable<Decoded<I>> =>
      recover === undefined ? open() : open().pipe(catchError((error: unknown) => recover(error, open) ?? throwError(() => error)));
    const dedupeKey = spec.dedupeKey;
    return resilientStream<Decoded<I>>(attempt, {
      scheduler: deps.scheduler,
      random: deps.random,
      silenceTimeoutMs: deps.options.silenceTimeoutMs ?? 180_000,
      baseDelayMs: deps.options.baseDelayMs ?? 500,
      maxDelayMs: deps.options.maxDelayMs ?? 30_000,
      maxConsecutiveFailures: deps.options.maxConsecutiveFailures ?? Infinity,
      maxConsecutiveAuthFailures: deps.options.maxConsecutiveAuthFailures ?? 3,
      dedupeCapacity: deps.options.dedupeCapacity ?? 10_000,
      expectCompletion: spec.expectCompletion ?? false,
      isFatal: isFatalGrpcStreamError,
      onUnauthenticated: async () => {
        await deps.getToken(true, used);
      },
      ...(dedupeKey === undefined ? {} : { dedupeKey: (item: Decoded<I>) => (isInvalid(item) ? undefined : dedupeKey(item)) }),
      ...(deps.wake === undefined ? {} : { wake: deps.wake }),
      onWake: ({ attempt: n, retryInMs }) =>
        deps.logger?.info(
          { stream: spec.name, attempt: n, retryInMs, nextTryAt: new Date(deps.scheduler.now() + retryInMs).toISOString() },
          'grpc stream: a token was obtained, reconnecting sooner',
        ),
    }).pipe(map((event) => toOutput(spec.name, event, deps.logger, deps.scheduler)));
  });
}

function toOutput<I>(
  name: string,
  event: StreamEvent<Decoded<I>>,
  logger: Logger | undefined,
  scheduler: SchedulerLike,
): LifecycleEvent | Decoded<I> {
  if (event.type === 'message') return event.message;
  if (event.type === 'connected') {
    logger?.debug({ stream: name, attempt: event.attempt }, 'grpc stream connected');
    return { type: 'connected', attempt: event.attempt };
  }
  const disconnected: DisconnectedEvent = {
    type: 'disconnected',
    attempt: event.attempt,
    reason: event.reason,
    error: event.error,
    willReconnect: event.willReconnect,
    retryInMs: event.retryInMs,
  };
  if (event.reason !== 'completed' || event.willReconnect) {
    const code = isTradebotError(event.error) ? event.error.code : undefined;
    const retry =
      event.retryInMs === undefined
        ? {}
        : { retryInMs: event.retryInMs, nextTryAt: new Date(scheduler.now() + event.retryInMs).toISOString() };
    logger?.warn(
      { stream: name, attempt: event.attempt, reason: event.reason, code, willReconnect: event.willReconnect, ...retry },
      'grpc stream disconnected',
    );
  }
  return disconnected;
}
