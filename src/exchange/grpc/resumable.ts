/**
 * The resumable gRPC streams: drop copy (`dropCopy$`, executions) and trade capture
 * (`tradeCaptureReports$`, trades). Every message carries the server's resume token; the client keeps the
 * latest one it received and sends it on every reconnect, so the server replays exactly what was missed
 * (no gap, no repeat), and deduplication by id covers anything delivered twice anyway. Events carry the
 * token so a caller can persist it and pass it as `resumeToken` after a restart. When the server cannot
 * resume (OUT_OF_RANGE: the token is older than its replay buffer, or from another server run) the stream
 * emits `resumeLost` and continues from now: the caller reconciles the gap (trade search, open orders).
 * Trades are deduplicated by id and state, so a busted trade (same id, new state) still comes through.
 */
import { concat, defer, of } from 'rxjs';
import type { Observable } from 'rxjs';
import type { ScaleSource } from '../../domain/index.ts';
import { type InstrumentCatalog, scaleSourceOf } from '../gateway/catalog.ts';
import type { LifecycleEvent } from '../../domain/stream-events.ts';
import type { DropCopyEvent, DropCopyItem, ResumeLostEvent, TradeCaptureItem, TradeCaptureStreamEvent } from './stream-types.ts';
import { isGrpcError } from './errors.ts';
import { grpcCodecs, methodRef } from './protocol/index.ts';
import type { MethodRef } from './protocol/index.ts';
import { type Decoded, type GrpcStreamDeps, runGrpcStream } from './stream-runner.ts';

export interface ResumableFilter {
  /** Only these accounts (all of the caller's when absent). */
  readonly accounts?: readonly string[];
  readonly symbols?: readonly string[];
  /** Resume after this token (the last event's `resumeToken` of an earlier subscription). */
  readonly resumeToken?: string;
  /** Drop messages whose id was already delivered. Default true. */
  readonly dedupe?: boolean;
}

interface ResumableSpec<I> {
  readonly name: string;
  readonly method: MethodRef;
  readonly decode: (raw: unknown, scales: ScaleSource) => { readonly token: string; readonly items: readonly I[] };
  readonly dedupeKey: (item: I) => string | undefined;
}

function runResumable<I extends { readonly type: string }>(
  deps: GrpcStreamDeps,
  catalog: InstrumentCatalog,
  filter: ResumableFilter,
  spec: ResumableSpec<I>,
): Observable<LifecycleEvent | Decoded<I | ResumeLostEvent>> {
  return defer(() => {
    let token = filter.resumeToken ?? '';
    const scales = scaleSourceOf(catalog);
    return runGrpcStream<I | ResumeLostEvent>(deps, {
      name: spec.name,
      method: spec.method,
      request: () =>
        grpcCodecs.resumableRequest.encode({ accounts: filter.accounts ?? [], symbols: filter.symbols ?? [], resumeToken: token }),
      decode: (raw) => {
        const decoded = spec.decode(raw, scales);
        if (decoded.token !== '') token = decoded.token;
        return decoded.items;
      },
      ...(filter.dedupe === false
        ? {}
        : { dedupeKey: (item: I | ResumeLostEvent) => (item.type === 'resumeLost' ? undefined : spec.dedupeKey(item as I)) }),
      recover: (error, reopen) => {
        if (!isGrpcError(error, 'GRPC_OUT_OF_RANGE') || token === '') return undefined;
        const lost: ResumeLostEvent = { type: 'resumeLost', resumeToken: token, error };
        token = '';
        return concat(of<Decoded<I | ResumeLostEvent>>(lost), reopen());
      },
    });
  });
}

export class GrpcResumableStreams {
  constructor(
    private readonly deps: GrpcStreamDeps,
    private readonly catalog: InstrumentCatalog,
  ) {}

  /** Executions of the caller's accounts (drop copy), resumable; see the module header. */
  dropCopy$(filter: ResumableFilter = {}): Observable<DropCopyEvent> {
    return runResumable<DropCopyItem>(this.deps, this.catalog, filter, {
      name: 'DropCopyAPI.CreateDropCopySubscription',
      method: methodRef('DropCopyAPI', 'CreateDropCopySubscription'),
      decode: (raw, scales) => {
        const m = grpcCodecs.dropCopyStream.decode(raw, scales);
        const items: DropCopyItem[] =
          m.kind === 'heartbeat'
            ? [{ type: 'heartbeat', resumeToken: m.resumeToken }]
            : [{ type: 'execution', execution: m.execution, resumeToken: m.resumeToken, sessionId: m.sessionId }];
        return { token: m.resumeToken, items };
      },
      dedupeKey: (item) => (item.type === 'execution' && item.execution.id !== '' ? item.execution.id : undefined),
    });
  }

  /** Trades of the caller's accounts (trade capture reports), resumable; see the module header. */
  tradeCaptureReports$(filter: ResumableFilter = {}): Observable<TradeCaptureStreamEvent> {
    return runResumable<TradeCaptureItem>(this.deps, this.catalog, filter, {
      name: 'DropCopyAPI.CreateTradeCaptureReportSubscription',
      method: methodRef('DropCopyAPI', 'CreateTradeCaptureReportSubscription'),
      decode: (raw, scales) => {
        const m = grpcCodecs.tradeCaptureStream.decode(raw, scales);
        const items: TradeCaptureItem[] =
          m.kind === 'heartbeat'
            ? [{ type: 'heartbeat', resumeToken: m.resumeToken }]
            : [{ type: 'trade', trade: m.trade, resumeToken: m.resumeToken, sessionId: m.sessionId }];
        return { token: m.resumeToken, items };
      },
      dedupeKey: (item) => (item.type === 'trade' && item.trade.id !== '' ? `${item.trade.id}:${item.trade.state}` : undefined),
    });
  }
}
