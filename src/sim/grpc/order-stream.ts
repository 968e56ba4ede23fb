/**
 * OrderEntryAPI.CreateOrderSubscription in the simulator, with the gateway stream's semantics: a snapshot
 * of the working orders of the requested (default: all of the caller's) accounts and symbols, then one
 * update per execution or cancel reject from the shared core, heartbeats when idle; `snapshot_only` sends
 * the snapshot and ends. Delivery is in core order; a reconnecting client gets a fresh snapshot.
 */
import { randomUUID } from 'node:crypto';
import type { OrderStreamMessage } from '../../domain/types/stream.ts';
import { grpcCodecs, type Payload } from '../../exchange/grpc/protocol/index.ts';
import { toDomainExecution, toDomainOrder } from '../exchange/to-domain.ts';
import type { StreamHandler } from './calls.ts';
import { type ServiceContext, accountsFor } from './context.ts';

export function orderStreamHandler(ctx: ServiceContext): StreamHandler {
  const { core, scales } = ctx;
  return (raw, sink) => {
    const request = grpcCodecs.orderSubscriptionRequest.decode(raw);
    const accounts = accountsFor(sink.caller, request.accounts);
    const symbols = request.symbols;
    const wanted = (account: string, symbol: string): boolean =>
      accounts.includes(account) && (symbols.length === 0 || symbols.includes(symbol));
    const sessionId = randomUUID();
    const send = (message: Payload<OrderStreamMessage>): boolean => sink.send(grpcCodecs.orderStream.encode(message, scales));
    const meta = () => ({ sessionId, processedSentTime: core.clock.now() });

    const orders = accounts
      .flatMap((account) => core.openOrders({ account }))
      .filter((o) => wanted(o.order.account, o.order.symbol))
      .flatMap((o) => {
        const s = scales(o.order.symbol);
        const record = core.order(o.order.orderId);
        return s === undefined ? [] : [toDomainOrder(o, s, { fills: record?.fills, lastTradeId: record?.lastTradeId })];
      });
    send({ kind: 'snapshot', orders, ...meta() });
    if (request.snapshotOnly) return sink.end();

    const subscription = core.events$.subscribe((event) => {
      if (event.kind === 'execution') {
        const e = event.execution;
        const s = scales(e.order.symbol);
        if (s === undefined || !wanted(e.order.account, e.order.symbol)) return;
        send({
          kind: 'update',
          executions: [toDomainExecution(e, s, { fills: event.fills, lastTradeId: event.lastTradeId })],
          cancelReject: undefined,
          ...meta(),
        });
      } else if (event.kind === 'cancelReject') {
        const r = event.reject;
        if (r.account === undefined || !wanted(r.account, r.symbol ?? '')) return;
        const cancelReject = {
          clordId: r.clordId ?? '',
          orderId: r.orderId ?? '',
          text: r.text,
          isReplace: r.isReplace,
          rejectReason: r.reason,
          transactTime: r.transactTime,
        };
        send({ kind: 'update', executions: [], cancelReject, ...meta() });
      }
    });
    sink.onClose(() => subscription.unsubscribe());
    sink.every(ctx.heartbeatMs, () => send({ kind: 'heartbeat', ...meta() }));
  };
}
