/**
 * DropCopyAPI in the simulator. CreateDropCopySubscription (executions) and CreateTradeCaptureReportSubscription
 * (trades) of the requested (default: all of the caller's) accounts and symbols, resumable: every message
 * carries `resume_token`, the journal position after it (heartbeats carry the head, so an idle client
 * still advances). With a token, the stream first replays the journal entries after it, then goes live;
 * an unusable token fails with OUT_OF_RANGE before anything is sent. Without one, it starts from now.
 * The first message is always a heartbeat or a replayed entry, so the client knows the stream is live.
 * CreateInstrumentStateChangeSubscription: the current state of each requested instrument (a heartbeat when
 * none of the requested symbols is listed), then changes. Every stream's first message comes at once.
 */
import { randomUUID } from 'node:crypto';
import { grpcCodecs, type ResumableMeta } from '../../exchange/grpc/protocol/index.ts';
import { toDomainExecution } from '../exchange/to-domain.ts';
import { tradeSeenBy } from '../exchange/trade-view.ts';
import { firmOf } from '../gateway/user-store.ts';
import type { StreamHandler, StreamSink, Json } from './calls.ts';
import { type ServiceContext, accountsFor } from './context.ts';
import { outOfRange } from './errors.ts';
import type { JournalEntry } from './journal.ts';

const REFUSALS = {
  foreign: 'is not from this server run',
  'too-old': 'is older than the replay buffer',
  ahead: 'is ahead of the stream',
} as const;

function resumable(
  ctx: ServiceContext,
  raw: unknown,
  sink: StreamSink,
  kind: JournalEntry['kind'],
  encode: (entry: JournalEntry, meta: ResumableMeta) => Json | undefined,
  heartbeat: (meta: ResumableMeta) => Json,
): void {
  const { core, journal } = ctx;
  const request = grpcCodecs.resumableRequest.decode(raw);
  const accounts = new Set(accountsFor(sink.caller, request.accounts));
  const symbols = new Set(request.symbols);
  const wanted = (entry: JournalEntry): boolean =>
    entry.kind === kind && (symbols.size === 0 || symbols.has(entry.symbol)) && entry.accounts.some((a) => accounts.has(a));
  const sessionId = randomUUID();
  const meta = (seq: number): ResumableMeta => ({ resumeToken: journal.token(seq), sessionId, processedSentTime: core.clock.now() });
  const deliver = (entry: JournalEntry): void => {
    if (!wanted(entry)) return;
    const message = encode(entry, meta(entry.seq));
    if (message !== undefined) sink.send(message);
  };

  let replay: readonly JournalEntry[] = [];
  if (request.resumeToken !== '') {
    const found = journal.since(request.resumeToken);
    if (typeof found === 'string') {
      throw outOfRange(
        `resume_token ${request.resumeToken} ${REFUSALS[found]} (it keeps the last ${journal.capacity} messages): ` +
          'subscribe without a token and recover the gap with SearchTrades / GetOpenOrders',
      );
    }
    replay = found;
  }
  for (const entry of replay) deliver(entry);
  sink.send(heartbeat(meta(journal.headSeq)));
  const subscription = journal.live$.subscribe(deliver);
  sink.onClose(() => subscription.unsubscribe());
  sink.every(ctx.heartbeatMs, () => sink.send(heartbeat(meta(journal.headSeq))));
}

export function dropCopyHandlers(
  ctx: ServiceContext,
): Record<
  'CreateDropCopySubscription' | 'CreateTradeCaptureReportSubscription' | 'CreateInstrumentStateChangeSubscription',
  StreamHandler
> {
  const { core, scales } = ctx;
  const dropCopy = grpcCodecs.dropCopyStream;
  const tradeCapture = grpcCodecs.tradeCaptureStream;
  return {
    CreateDropCopySubscription(raw, sink) {
      resumable(
        ctx,
        raw,
        sink,
        'execution',
        (entry, meta) => {
          if (entry.kind !== 'execution') return undefined;
          const s = scales(entry.symbol);
          return s === undefined
            ? undefined
            : dropCopy.encode(
                {
                  kind: 'execution',
                  execution: toDomainExecution(entry.execution, s, { fills: entry.fills, lastTradeId: entry.lastTradeId }),
                  ...meta,
                },
                scales,
              );
        },
        (meta) => dropCopy.encode({ kind: 'heartbeat', ...meta }),
      );
    },
    CreateTradeCaptureReportSubscription(raw, sink) {
      resumable(
        ctx,
        raw,
        sink,
        'trade',
        (entry, meta) => {
          if (entry.kind !== 'trade') return undefined;
          const s = scales(entry.symbol);
          return s === undefined
            ? undefined
            : tradeCapture.encode({ kind: 'trade', trade: tradeSeenBy(entry.trade, s, firmOf(sink.caller.participant)), ...meta }, scales);
        },
        (meta) => tradeCapture.encode({ kind: 'heartbeat', ...meta }),
      );
    },
    CreateInstrumentStateChangeSubscription(raw, sink) {
      const request = grpcCodecs.instrumentStateSubscriptionRequest.decode(raw);
      const symbols = new Set(request.symbols);
      const codec = grpcCodecs.instrumentStateStream;
      let sent = 0;
      for (const instrument of core.instruments()) {
        if (symbols.size > 0 && !symbols.has(instrument.symbol)) continue;
        sink.send(
          codec.encode({
            kind: 'update',
            symbol: instrument.symbol,
            state: core.instrumentState(instrument.symbol),
            text: '',
            transactTime: core.clock.now(),
          }),
        );
        sent += 1;
      }
      // no requested symbol is listed (yet): a heartbeat tells the client the stream is live
      if (sent === 0) sink.send(codec.encode({ kind: 'heartbeat' }));
      const subscription = core.events$.subscribe((event) => {
        if (event.kind !== 'instrument' || event.event.kind !== 'STATE') return;
        if (symbols.size > 0 && !symbols.has(event.event.symbol)) return;
        sink.send(
          codec.encode({ kind: 'update', symbol: event.event.symbol, state: event.event.state, text: '', transactTime: event.event.time }),
        );
      });
      sink.onClose(() => subscription.unsubscribe());
      sink.every(ctx.heartbeatMs, () => sink.send(codec.encode({ kind: 'heartbeat' })));
    },
  };
}
