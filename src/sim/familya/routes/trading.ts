/**
 * Family A order entry (`/v1/trading/...`, all with `x-participant-id`): insert -> `{orderId}`, preview
 * `{request}` -> `{previewOrder}` (checked as an insert would be, changing nothing),
 * cancel `{orderId, clordId, symbol}` -> `{}`, cancel/list `{requests}`
 * (max 20) -> `{}`, replace -> `{orderId}`, replace/list `{requests}` (max 20) -> `{responses:[{orderId}]}`,
 * and `GET /v1/trading/open-orders` (`?accounts=&symbols=`) -> `{orders}`. A replace may omit `symbol`
 * (its prices are then scaled by the order's instrument). The translation and ownership
 * checks are the ones the gateway uses, on the same ExchangeCore, so both doors see one exchange.
 * Every POST spends one unit of the firm's order-entry budget, shared with the gateway and gRPC
 * (`sim.gateway.rateLimitPerSecond`): an empty budget is 429 RESOURCE_EXHAUSTED with `retry-after`.
 * An insert the exchange rejects for a market reason (closed instrument, no liquidity) is 400
 * FAILED_PRECONDITION with reason ORDER_REJECTED and the order id in the details.
 */
import { familyA } from '../../../domain/wire/families.ts';
import { MAX_LIST_REQUESTS } from '../../../domain/limits.ts';
import type { Order } from '../../../domain/types/order.ts';
import { invalidArgument, SimHttpError } from '../../http/errors.ts';
import type { ExchangeCore } from '../../exchange/exchange-core.ts';
import {
  callerOrder,
  checkCancel,
  insertOrder,
  previewOrder,
  toEngineOrder,
  toEngineReplace,
  type Caller,
} from '../../exchange/commands.ts';
import { toDomainOrder } from '../../exchange/to-domain.ts';
import type { CancelReject } from '../../matching/index.ts';
import { scaleLookup } from '../../gateway/wire.ts';
import { FamilyAError } from '../errors.ts';
import { accountsFor } from '../guard.ts';
import { decodeA, queryList, type ApiRoutes } from '../api-routes.ts';
import { domainOrderOf } from './reports.ts';

function checkListSize(count: number): void {
  if (count === 0) throw invalidArgument('requests must hold at least one request');
  if (count > MAX_LIST_REQUESTS) throw invalidArgument(`at most ${MAX_LIST_REQUESTS} requests per list call, got ${count}`);
}

function cancelRejectError(reject: CancelReject): SimHttpError {
  const status = reject.reason === 'CXL_REJ_REASON_UNKNOWN_ORDER' ? 'NOT_FOUND' : 'FAILED_PRECONDITION';
  return new SimHttpError(status, `${reject.reason}: ${reject.text}`);
}

/**
 * A replace's prices are scaled by its order's symbol: fill `symbol` in from the order when absent, only from
 * an order of the caller's (another firm's order is treated as unknown, so the answer tells nothing of it).
 */
function withOrderSymbol(core: ExchangeCore, request: unknown, caller: Caller): unknown {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return request;
  const fields = request as Record<string, unknown>;
  if (typeof fields['symbol'] === 'string' && fields['symbol'] !== '') return request;
  const orderId = fields['orderId'];
  const symbol = typeof orderId === 'string' ? callerOrder(core, orderId, caller)?.latest.order.symbol : undefined;
  return symbol === undefined ? request : { ...fields, symbol };
}

/**
 * `budget(firm)` spends one unit of the firm's order-entry budget (the one the gateway and gRPC share) or throws
 * RESOURCE_EXHAUSTED: every POST below starts with it.
 */
export function registerTradingRoutes(routes: ApiRoutes, core: ExchangeCore, budget: (firm: string) => void = () => undefined): void {
  const now = () => core.clock.now();
  const scales = scaleLookup(core);

  routes.add('POST /v1/trading/orders', 'required', async (context, caller) => {
    budget(caller.firm);
    const request = await decodeA(context, familyA.orderRequest, core);
    const outcome = insertOrder(core, toEngineOrder(core, request, caller.trading, now()));
    if (outcome.status === 'REJECTED') {
      throw new FamilyAError('FAILED_PRECONDITION', 'ORDER_REJECTED', `the exchange rejected order ${outcome.orderId}: ${outcome.text}`, {
        orderId: outcome.orderId,
      });
    }
    return { body: { orderId: outcome.orderId } };
  });

  routes.add('POST /v1/trading/orders/preview', 'required', async (context, caller) => {
    budget(caller.firm);
    const body = await context.body();
    let preview;
    try {
      preview = familyA.previewOrderRequest.decode(body['request'] === undefined ? { request: body } : body, scales);
    } catch (error) {
      throw invalidArgument((error as Error).message);
    }
    const engineRequest = toEngineOrder(core, preview.request, caller.trading, now());
    const instrument = core.instrument(engineRequest.symbol);
    if (instrument === undefined) throw invalidArgument(`unknown symbol ${engineRequest.symbol}`);
    const order = toDomainOrder(previewOrder(core, engineRequest, now()), instrument.scales);
    return { body: familyA.previewOrderResponse.encode({ previewOrder: order }, instrument.scales) };
  });

  routes.add('POST /v1/trading/orders/cancel', 'required', async (context, caller) => {
    budget(caller.firm);
    const request = await decodeA(context, familyA.cancelOrderRequest, core);
    checkCancel(core, request, caller.trading);
    const result = core.cancel({
      orderId: request.orderId,
      symbol: request.symbol === '' ? undefined : request.symbol,
      cancelClordId: request.clordId,
    });
    const reject = result.cancelRejects[0];
    if (reject !== undefined) throw cancelRejectError(reject);
    return { body: {} };
  });

  routes.add('POST /v1/trading/orders/cancel/list', 'required', async (context, caller) => {
    budget(caller.firm);
    const list = await decodeA(context, familyA.cancelOrderListRequest, core);
    checkListSize(list.requests.length);
    const own = list.requests.filter((request) => checkCancel(core, request, caller.trading, true));
    for (const request of own)
      core.cancel({ orderId: request.orderId, symbol: request.symbol === '' ? undefined : request.symbol, cancelClordId: request.clordId });
    return { body: {} };
  });

  routes.add('POST /v1/trading/orders/replace', 'required', async (context, caller) => {
    budget(caller.firm);
    const request = await decodeA(context, familyA.replaceOrderRequest, core, (body) => withOrderSymbol(core, body, caller.trading));
    const result = core.replace(toEngineReplace(core, request, caller.trading));
    const reject = result.cancelRejects[0];
    if (reject !== undefined) throw cancelRejectError(reject);
    const replaced = result.executions.find((e) => e.type === 'EXECUTION_TYPE_REPLACE') ?? result.executions[0];
    return { body: { orderId: replaced?.order.orderId ?? request.orderId } };
  });

  routes.add('POST /v1/trading/orders/replace/list', 'required', async (context, caller) => {
    budget(caller.firm);
    const list = await decodeA(context, familyA.replaceOrderListRequest, core, (body) =>
      Array.isArray(body['requests'])
        ? { ...body, requests: body['requests'].map((r: unknown) => withOrderSymbol(core, r, caller.trading)) }
        : body,
    );
    checkListSize(list.requests.length);
    const commands = list.requests.map((r) => toEngineReplace(core, r, caller.trading));
    const responses = commands.map((command) => ({ orderId: core.replace(command).executions[0]?.order.orderId ?? command.orderId ?? '' }));
    return { body: familyA.orderIdsResponse.encode({ responses }) };
  });

  routes.add('GET /v1/trading/open-orders', 'required', (context, caller) => {
    const accounts = accountsFor(caller, queryList(context.query, 'accounts', 'account'));
    const symbols = queryList(context.query, 'symbols', 'symbol');
    const orders: Order[] = [];
    for (const account of accounts) {
      for (const snapshot of core.openOrders({ account })) {
        if (symbols.length > 0 && !symbols.includes(snapshot.order.symbol)) continue;
        const record = core.order(snapshot.order.orderId);
        const order = record === undefined ? undefined : domainOrderOf(core, record);
        if (order !== undefined) orders.push(order);
      }
    }
    return { body: familyA.openOrdersResponse.encode({ orders }, scales) };
  });
}
