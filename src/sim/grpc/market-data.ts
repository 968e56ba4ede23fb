/**
 * MarketDataSubscriptionAPI.CreateMarketDataSubscription in the simulator, with the gateway stream's
 * semantics: 1 to `maxSymbolsPerStream` (1000) known symbols, depth 0 meaning the default (10); one update
 * per symbol first (the snapshot), then one update per book change of a requested symbol carrying the full
 * aggregated levels up to the depth, the instrument state and the session statistics; heartbeats when idle.
 * `snapshot_only` sends the first updates and ends. Updates are built from the engine's raw integers
 * (market-wire.ts), the same message the codecs would build from the Decimal book.
 */
import { filter } from 'rxjs';
import { MARKET_DATA_DEPTH_DEFAULT } from '../../domain/limits.ts';
import { grpcCodecs } from '../../exchange/grpc/protocol/index.ts';
import type { StreamHandler } from './calls.ts';
import type { ServiceContext } from './context.ts';
import { marketUpdateMessage } from './market-wire.ts';
import { invalidArgument } from './errors.ts';

export function marketDataHandler(ctx: ServiceContext): StreamHandler {
  const { core } = ctx;
  return (raw, sink) => {
    const request = grpcCodecs.marketDataSubscriptionRequest.decode(raw);
    const count = request.symbols.length;
    if (count === 0) throw invalidArgument('symbols is required: name at least one symbol');
    if (count > ctx.maxSymbolsPerStream) throw invalidArgument(`at most ${ctx.maxSymbolsPerStream} symbols per stream, got ${count}`);
    for (const symbol of request.symbols) if (core.instrument(symbol) === undefined) throw invalidArgument(`unknown symbol ${symbol}`);
    if (request.depth < 0) throw invalidArgument(`depth must be 0 (default ${MARKET_DATA_DEPTH_DEFAULT}) or more, got ${request.depth}`);
    const depth = request.depth === 0 ? MARKET_DATA_DEPTH_DEFAULT : request.depth;
    const symbols = new Set(request.symbols);
    const update = (symbol: string): void => {
      const message = marketUpdateMessage(core, symbol, depth);
      if (message !== undefined) sink.send(message);
    };

    for (const symbol of symbols) update(symbol);
    if (request.snapshotOnly) return sink.end();
    const subscription = core.events$.pipe(filter((e) => e.kind === 'book' && symbols.has(e.symbol))).subscribe((event) => {
      if (event.kind === 'book') update(event.symbol);
    });
    sink.onClose(() => subscription.unsubscribe());
    sink.every(ctx.heartbeatMs, () => sink.send(grpcCodecs.marketDataStream.encode({ kind: 'heartbeat' })));
  };
}
