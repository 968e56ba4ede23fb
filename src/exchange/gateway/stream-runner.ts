/**
 * The machinery shared by the gateway's NDJSON streams: open `/api/v1beta1/<name>` with a fresh access
 * token per attempt (resubscribe), decode every line into typed items (a line that does not decode becomes
 * an `invalidMessage` item, not a dead stream), keep the stream alive with `resilientStream` (reconnect with
 * backoff, silence watchdog, at-least-once dedupe by key across reconnects, token renewal on 401 through the
 * session), and map lifecycle and terminal errors to the gateway's typed errors.
 *
 * Fatal (the stream ends with the error): rejections, permission and config problems (the transport's
 * default), a closed session or transport, and missing MFA configuration. Everything else reconnects.
 */
import { defer, from, map, mergeMap, switchMap, catchError, throwError } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Logger } from 'pino';
import { isTradebotError } from '../../errors.ts';
import { TransportErrorCode, defaultIsFatal, resilientStream, streamNdjson } from '../transport/index.ts';
import type { RandomSource, StreamEvent, StreamOpener } from '../transport/index.ts';
import type { TokenProvider } from './authed-caller.ts';
import { gatewayPath } from './call.ts';
import { GatewayErrorCode, badResponse, toGatewayError } from './errors.ts';
import type { DisconnectedEvent, InvalidMessageEvent, LifecycleEvent } from '../../domain/stream-events.ts';

export interface GatewayStreamOptions {
  /** Silence (not even a heartbeat) after which a stream is reconnected, ms. Default 180 000. */
  readonly silenceTimeoutMs?: number;
  /** Reconnect backoff: first ceiling and largest ceiling, ms. Defaults 500 and 30 000. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Consecutive failed attempts (no message) before giving up. Default Infinity. */
  readonly maxConsecutiveFailures?: number;
  /** Execution ids remembered for deduplication. Default 10 000. */
  readonly dedupeCapacity?: number;
  /** Deadline for a stream's status and headers, ms (default: the transport's). */
  readonly openTimeoutMs?: number;
}

export interface StreamRunnerDeps {
  readonly opener: StreamOpener;
  readonly tokens: TokenProvider;
  /** Waits for the client-side rate limiter before each (re)connection. */
  readonly acquire: () => Promise<void>;
  readonly scheduler: SchedulerLike;
  readonly random: RandomSource;
  readonly options: GatewayStreamOptions;
  readonly logger: Logger | undefined;
  /** Emits after each successful login (the session's `logins$`): a stream waiting out a backoff reconnects sooner. */
  readonly wake?: Observable<unknown>;
}

export interface StreamSpec<I> {
  /** Endpoint name, e.g. `create_order_subscription`. */
  readonly name: string;
  /** The JSON request body (snake_case). */
  readonly body: Record<string, unknown>;
  /** One decoded line -> items (an order update with two executions gives two items). */
  readonly decode: (line: unknown) => readonly I[];
  /** Dedupe key of an item (undefined: never dropped). */
  readonly dedupeKey?: (item: I) => string | undefined;
  /** True for snapshot-only requests: the server ends the stream after the snapshot. */
  readonly expectCompletion?: boolean;
  /** Overrides options.maxConsecutiveFailures (snapshot Promises give up after a few attempts). */
  readonly maxConsecutiveFailures?: number;
}

export function isFatalStreamError(error: unknown): boolean {
  if (defaultIsFatal(error)) return true;
  if (!isTradebotError(error)) return false;
  return (
    error.code === GatewayErrorCode.SessionClosed ||
    error.code === GatewayErrorCode.MfaRequired ||
    error.code === GatewayErrorCode.InvalidRequest ||
    error.code === TransportErrorCode.Closed ||
    error.code === TransportErrorCode.Aborted
  );
}

/** Decodes one line with `decode`; a failure becomes a single invalidMessage item. */
export function decodeLine<I>(name: string, line: unknown, decode: (line: unknown) => readonly I[]): readonly (I | InvalidMessageEvent)[] {
  try {
    return decode(line);
  } catch (error) {
    return [{ type: 'invalidMessage', error: badResponse(name, error) }];
  }
}

/** A resilient, authenticated NDJSON stream of `spec`'s items, with lifecycle events. */
export function runGatewayStream<I>(deps: StreamRunnerDeps, spec: StreamSpec<I>): Observable<LifecycleEvent | I | InvalidMessageEvent> {
  return defer(() => {
    let lastToken: string | undefined;
    const attempt = (): Observable<I | InvalidMessageEvent> =>
      from(deps.acquire().then(() => deps.tokens.accessToken())).pipe(
        switchMap((token) => {
          lastToken = token;
          return streamNdjson(deps.opener, {
            path: gatewayPath('api', spec.name),
            body: spec.body,
            headers: { authorization: token },
            ...(deps.options.openTimeoutMs === undefined ? {} : { timeoutMs: deps.options.openTimeoutMs }),
          });
        }),
        mergeMap((line) => decodeLine(spec.name, line, spec.decode)),
      );
    const dedupeKey = spec.dedupeKey;
    return resilientStream<I | InvalidMessageEvent>(attempt, {
      scheduler: deps.scheduler,
      random: deps.random,
      silenceTimeoutMs: deps.options.silenceTimeoutMs ?? 180_000,
      baseDelayMs: deps.options.baseDelayMs ?? 500,
      maxDelayMs: deps.options.maxDelayMs ?? 30_000,
      maxConsecutiveFailures: spec.maxConsecutiveFailures ?? deps.options.maxConsecutiveFailures ?? Infinity,
      dedupeCapacity: deps.options.dedupeCapacity ?? 10_000,
      expectCompletion: spec.expectCompletion ?? false,
      isFatal: isFatalStreamError,
      onUnauthenticated: async () => {
        await deps.tokens.recoverFromUnauthorized(lastToken);
      },
      ...(deps.wake === undefined ? {} : { wake: deps.wake }),
      onWake: ({ attempt: n, retryInMs }) =>
        deps.logger?.info(
          { stream: spec.name, attempt: n, retryInMs, nextTryAt: nextTryAt(deps.scheduler, retryInMs) },
          'gateway stream: logged in again, reconnecting sooner',
        ),
      ...(dedupeKey === undefined ? {} : { dedupeKey: (item: I | InvalidMessageEvent) => (isInvalid(item) ? undefined : dedupeKey(item)) }),
    }).pipe(
      map((event) => toOutput(spec.name, event, deps.logger, deps.scheduler)),
      catchError((error: unknown) => throwError(() => toGatewayError(error, spec.name))),
    );
  });
}

function isInvalid(item: unknown): item is InvalidMessageEvent {
  return typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'invalidMessage';
}

/** When a retry `retryInMs` from now happens, as an ISO time for the log. */
export function nextTryAt(scheduler: SchedulerLike, retryInMs: number): string {
  return new Date(scheduler.now() + retryInMs).toISOString();
}

function toOutput<I>(
  name: string,
  event: StreamEvent<I | InvalidMessageEvent>,
  logger: Logger | undefined,
  scheduler: SchedulerLike,
): LifecycleEvent | I | InvalidMessageEvent {
  if (event.type === 'message') return event.message;
  if (event.type === 'connected') {
    logger?.debug({ stream: name, attempt: event.attempt }, 'gateway stream connected');
    return { type: 'connected', attempt: event.attempt };
  }
  const error = toGatewayError(event.error, name);
  const disconnected: DisconnectedEvent = {
    type: 'disconnected',
    attempt: event.attempt,
    reason: event.reason,
    error,
    willReconnect: event.willReconnect,
    retryInMs: event.retryInMs,
  };
  if (event.reason !== 'completed' || event.willReconnect) {
    logger?.warn(
      {
        stream: name,
        attempt: event.attempt,
        reason: event.reason,
        code: isTradebotError(error) ? error.code : undefined,
        willReconnect: event.willReconnect,
        ...(event.retryInMs === undefined ? {} : { retryInMs: event.retryInMs, nextTryAt: nextTryAt(scheduler, event.retryInMs) }),
      },
      'gateway stream disconnected',
    );
  }
  return disconnected;
}
