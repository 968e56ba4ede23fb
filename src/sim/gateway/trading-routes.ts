/**
 * The gateway's order entry endpoints in the simulator (`/api/v1beta1`): insert_order, insert_order_list,
 * preview_order, cancel_order, cancel_order_list, cancel_replace_order, cancel_replace_order_list and
 * insert_order_cross. Each request is decoded, checked for ownership of the account, translated to an
 * engine command and answered; the resulting executions reach every order stream through the core.
 */
import type { Router, RequestContext } from '../http/router.ts';
import { invalidArgument, SimHttpError } from '../http/errors.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import {
  checkCancel,
  insertCross,
  insertOrder,
  insertOrders,
  previewOrder,
  toEngineCross,
  toEngineOrder,
  toEngineReplace,
  type Caller,
} from '../exchange/commands.ts';
import { toDomainOrder } from '../exchange/to-domain.ts';
import { MAX_LIST_REQUESTS } from '../../domain/limits.ts';
import { decodeBody, gateway, scaleLookup } from './wire.ts';
import type { CancelReject } from '../matching/index.ts';

export type CallerOf = (context: RequestContext) => Promise<Caller>;

function checkListSize(count: number): void {
  if (count === 0) throw invalidArgument('requests must hold at least one request');
  if (count > MAX_LIST_REQUESTS) throw invalidArgument(`at most ${MAX_LIST_REQUESTS} requests per list call, got ${count}`);
}

function cancelRejectError(reject: CancelReject): SimHttpError {
  const status = reject.reason === 'CXL_REJ_REASON_UNKNOWN_ORDER' ? 'NOT_FOUND' : 'FAILED_PRECONDITION';
  return new SimHttpError(status, `${reject.reason}: ${reject.text}`);
}

export function registerGatewayTradingRoutes(router: Router, core: ExchangeCore, callerOf: CallerOf): void {
  const base = '/api/v1beta1';
  const now = () => core.clock.now();

  router.post(`${base}/insert_order`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.orderRequest, core);
    const engineRequest = toEngineOrder(core, request, caller, now());
    const outcome = insertOrder(core, engineRequest);
    return {
      body: {
        order_id: outcome.orderId,
        clord_id: engineRequest.clordId,
        status: outcome.status,
        ...(outcome.text === '' ? {} : { text: outcome.text }),
      },
    };
  });

  router.post(`${base}/insert_order_list`, async (context) => {
    const caller = await callerOf(context);
    const list = await decodeBody(context, gateway.insertOrderListRequest, core);
    checkListSize(list.requests.length);
    const commands = list.requests.map((r) => toEngineOrder(core, r, caller, now()));
    const responses = insertOrders(core, commands).map((outcome) => ({ order_id: outcome.orderId }));
    return { body: { responses } };
  });

  router.post(`${base}/preview_order`, async (context) => {
    const caller = await callerOf(context);
    const body = await context.body();
    const wrapped = body['request'] === undefined ? { request: body } : body;
    let preview;
    try {
      preview = gateway.previewOrderRequest.decode(wrapped, scaleLookup(core));
    } catch (error) {
      throw invalidArgument((error as Error).message);
    }
    const engineRequest = toEngineOrder(core, preview.request, caller, now());
    const instrument = core.instrument(engineRequest.symbol);
    if (instrument === undefined) throw invalidArgument(`unknown symbol ${engineRequest.symbol}`);
    const order = toDomainOrder(previewOrder(core, engineRequest, now()), instrument.scales);
    return { body: { preview_order: gateway.order.encode(order, instrument.scales) } };
  });

  router.post(`${base}/cancel_order`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.cancelOrderRequest, core);
    checkCancel(core, request, caller);
    const result = core.cancel({
      orderId: request.orderId,
      symbol: request.symbol === '' ? undefined : request.symbol,
      cancelClordId: request.clordId,
    });
    const reject = result.cancelRejects[0];
    if (reject !== undefined) throw cancelRejectError(reject);
    return { body: {} };
  });

  router.post(`${base}/cancel_order_list`, async (context) => {
    const caller = await callerOf(context);
    const list = await decodeBody(context, gateway.cancelOrderListRequest, core);
    checkListSize(list.requests.length);
    const own = list.requests.filter((request) => checkCancel(core, request, caller, true));
    for (const request of own)
      core.cancel({ orderId: request.orderId, symbol: request.symbol === '' ? undefined : request.symbol, cancelClordId: request.clordId });
    return { body: {} };
  });

  router.post(`${base}/cancel_replace_order`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.replaceOrderRequest, core);
    const result = core.replace(toEngineReplace(core, request, caller));
    const reject = result.cancelRejects[0];
    if (reject !== undefined) throw cancelRejectError(reject);
    const replaced = result.executions.find((e) => e.type === 'EXECUTION_TYPE_REPLACE') ?? result.executions[0];
    return { body: { order_id: replaced?.order.orderId ?? request.orderId } };
  });

  router.post(`${base}/cancel_replace_order_list`, async (context) => {
    const caller = await callerOf(context);
    const list = await decodeBody(context, gateway.replaceOrderListRequest, core);
    checkListSize(list.requests.length);
    const commands = list.requests.map((r) => toEngineReplace(core, r, caller));
    const responses = commands.map((command) => {
      const result = core.replace(command);
      return { order_id: result.executions[0]?.order.orderId ?? command.orderId ?? '' };
    });
    return { body: { responses } };
  });

  router.post(`${base}/insert_order_cross`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.crossOrderRequest, core);
    const outcome = insertCross(core, toEngineCross(core, request, caller, now()));
    return { body: { responses: outcome.orderIds.map((order_id) => ({ order_id })) } };
  });
}
