/**
 * OrderEntryAPI's unary methods in the simulator: InsertOrder, InsertOrderList, PreviewOrder, CancelOrder,
 * CancelOrderList, CancelReplaceOrder and GetOpenOrders. Requests are decoded with the protocol codecs and
 * translated by src/sim/exchange/commands.ts, the translation the gateway and /v1 doors use, against the
 * same ExchangeCore: an order sent here is the same order on every stream, search and position. Inserts go
 * through `insertOrder(s)` like the other doors: a repeated (account, clord_id) answers with the earlier order.
 */
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import { checkCancel, insertOrder, insertOrders, previewOrder, toEngineOrder, toEngineReplace } from '../exchange/commands.ts';
import { toDomainOrder } from '../exchange/to-domain.ts';
import type { CancelReject } from '../matching/index.ts';
import { SimHttpError } from '../http/errors.ts';
import { MAX_LIST_REQUESTS } from '../../domain/limits.ts';
import type { Order } from '../../domain/types/order.ts';
import { grpcCodecs, type MethodName } from '../../exchange/grpc/protocol/index.ts';
import type { UnaryHandler } from './calls.ts';
import { type ServiceContext, accountsFor } from './context.ts';
import { invalidArgument } from './errors.ts';

function checkListSize(count: number): void {
  if (count === 0) throw invalidArgument('requests must hold at least one request');
  if (count > MAX_LIST_REQUESTS) throw invalidArgument(`at most ${MAX_LIST_REQUESTS} requests per list call, got ${count}`);
}

/** The same statuses as the gateway's cancel routes. */
function cancelRejectError(reject: CancelReject): SimHttpError {
  const status = reject.reason === 'CXL_REJ_REASON_UNKNOWN_ORDER' ? 'NOT_FOUND' : 'FAILED_PRECONDITION';
  return new SimHttpError(status, `${reject.reason}: ${reject.text}`);
}

function cancel(core: ExchangeCore, request: { orderId: string; symbol: string; clordId: string }): CancelReject | undefined {
  const result = core.cancel({
    orderId: request.orderId,
    symbol: request.symbol === '' ? undefined : request.symbol,
    cancelClordId: request.clordId,
  });
  return result.cancelRejects[0];
}

export type OrderEntryUnary = Exclude<MethodName<'OrderEntryAPI'>, 'CreateOrderSubscription'>;

export function orderEntryHandlers(ctx: ServiceContext): Record<OrderEntryUnary, UnaryHandler> {
  const { core, scales } = ctx;
  const now = (): number => core.clock.now();
  return {
    InsertOrder(raw, caller) {
      const request = grpcCodecs.orderRequest.decode(raw, scales);
      const engineRequest = toEngineOrder(core, request, caller, now());
      const outcome = insertOrder(core, engineRequest);
      return grpcCodecs.insertOrderResponse.encode({
        orderId: outcome.orderId,
        clordId: engineRequest.clordId ?? '',
        status: outcome.status,
        text: outcome.text,
      });
    },
    InsertOrderList(raw, caller) {
      const list = grpcCodecs.insertOrderListRequest.decode(raw, scales);
      checkListSize(list.requests.length);
      const commands = list.requests.map((r) => toEngineOrder(core, r, caller, now()));
      const responses = insertOrders(core, commands).map((outcome) => ({ orderId: outcome.orderId }));
      return grpcCodecs.orderIdsResponse.encode({ responses });
    },
    PreviewOrder(raw, caller) {
      const { request } = grpcCodecs.previewOrderRequest.decode(raw, scales);
      const engineRequest = toEngineOrder(core, request, caller, now());
      const instrument = core.instrument(engineRequest.symbol);
      if (instrument === undefined) throw invalidArgument(`unknown symbol ${engineRequest.symbol}`);
      // validated as every door previews (commands.ts): INVALID_ARGUMENT for a malformed order, REJECTED for a market condition
      const previewed = toDomainOrder(previewOrder(core, engineRequest, now()), instrument.scales);
      return grpcCodecs.previewOrderResponse.encode({ previewOrder: previewed }, scales);
    },
    CancelOrder(raw, caller) {
      const request = grpcCodecs.cancelOrderRequest.decode(raw);
      checkCancel(core, request, caller);
      const reject = cancel(core, request);
      if (reject !== undefined) throw cancelRejectError(reject);
      return grpcCodecs.cancelOrderResponse.encode({});
    },
    CancelOrderList(raw, caller) {
      const list = grpcCodecs.cancelOrderListRequest.decode(raw);
      checkListSize(list.requests.length);
      const own = list.requests.filter((request) => checkCancel(core, request, caller, true));
      for (const request of own) cancel(core, request);
      return grpcCodecs.cancelOrderResponse.encode({});
    },
    CancelReplaceOrder(raw, caller) {
      const request = grpcCodecs.replaceOrderRequest.decode(raw, scales);
      const result = core.replace(toEngineReplace(core, request, caller));
      const reject = result.cancelRejects[0];
      if (reject !== undefined) throw cancelRejectError(reject);
      const replaced = result.executions.find((e) => e.type === 'EXECUTION_TYPE_REPLACE') ?? result.executions[0];
      return grpcCodecs.replaceOrderResponse.encode({ orderId: replaced?.order.orderId ?? request.orderId });
    },
    GetOpenOrders(raw, caller) {
      const request = grpcCodecs.openOrdersRequest.decode(raw);
      const orders: Order[] = [];
      for (const account of accountsFor(caller, request.accounts)) {
        for (const snapshot of core.openOrders({ account })) {
          if (request.symbols.length > 0 && !request.symbols.includes(snapshot.order.symbol)) continue;
          const record = core.order(snapshot.order.orderId);
          const s = scales(snapshot.order.symbol);
          if (record === undefined || s === undefined) continue;
          orders.push(
            toDomainOrder(record.latest, s, {
              fills: record.fills,
              lastTradeId: record.lastTradeId,
              lastTransactTime: record.lastTransactTime,
            }),
          );
        }
      }
      return grpcCodecs.openOrdersResponse.encode({ orders }, scales);
    },
  };
}
