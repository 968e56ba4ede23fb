/**
 * PositionAPI.CreatePositionSubscription in the simulator: a snapshot of every position of the requested
 * (default: all of the caller's) accounts, then an update with each position that changed. A position
 * changes with fills and settlement (the ledger) and with its open buy/sell quantities (any execution of
 * the account in that symbol); changes caused by one command are coalesced into one update (flushed in a
 * microtask, after the core has published everything the command did). Heartbeats when idle.
 */
import { randomUUID } from 'node:crypto';
import { ZERO } from '../../domain/decimal.ts';
import type { Position } from '../../domain/types/account.ts';
import { grpcCodecs } from '../../exchange/grpc/protocol/index.ts';
import type { GrpcPositionMessage, Payload } from '../../exchange/grpc/protocol/index.ts';
import type { LedgerPosition } from '../exchange/ledger.ts';
import { domainPosition } from '../gateway/lookup-routes.ts';
import type { StreamHandler } from './calls.ts';
import { type ServiceContext, accountsFor } from './context.ts';

const SEP = '\n';

export function positionStreamHandler(ctx: ServiceContext): StreamHandler {
  const { core, scales } = ctx;
  const positionOf = (account: string, symbol: string): Position => {
    const held = core.ledger.positionsOf(account).find((p) => p.symbol === symbol);
    const flat: LedgerPosition = { account, symbol, net: 0, cost: ZERO, realizedPnl: ZERO, updateTime: 0 };
    return domainPosition(core, held ?? flat);
  };
  return (raw, sink) => {
    const request = grpcCodecs.positionSubscriptionRequest.decode(raw);
    const accounts = new Set(accountsFor(sink.caller, request.accounts));
    const sessionId = randomUUID();
    const send = (message: Payload<GrpcPositionMessage>): boolean => sink.send(grpcCodecs.positionStream.encode(message, scales));
    const meta = () => ({ sessionId, processedSentTime: core.clock.now() });

    const snapshot: Position[] = [];
    for (const account of accounts) {
      const symbols = new Set(core.ledger.positionsOf(account).map((p) => p.symbol));
      for (const order of core.openOrders({ account })) symbols.add(order.order.symbol);
      for (const symbol of symbols) snapshot.push(positionOf(account, symbol));
    }
    send({ kind: 'snapshot', positions: snapshot, ...meta() });

    const dirty = new Set<string>();
    let scheduled = false;
    const flush = (): void => {
      scheduled = false;
      if (sink.closed || dirty.size === 0) return;
      const positions = [...dirty].map((key) => {
        const [account = '', symbol = ''] = key.split(SEP);
        return positionOf(account, symbol);
      });
      dirty.clear();
      send({ kind: 'update', positions, ...meta() });
    };
    const mark = (account: string, symbol: string): void => {
      if (!accounts.has(account)) return;
      dirty.add(`${account}${SEP}${symbol}`);
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    };
    const subscription = core.events$.subscribe((event) => {
      if (event.kind === 'position') mark(event.position.account, event.position.symbol);
      else if (event.kind === 'execution') mark(event.execution.order.account, event.execution.order.symbol);
    });
    sink.onClose(() => subscription.unsubscribe());
    sink.every(ctx.heartbeatMs, () => send({ kind: 'heartbeat', ...meta() }));
  };
}
