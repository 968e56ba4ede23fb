/**
 * Field tables of executions, leg prices, trades and cancel rejects.
 * An execution's scales come from its order's symbol; each leg price uses its own symbol.
 */
import {
  CXL_REJ_REASONS,
  EXECUTION_TYPES,
  ORD_REJECT_REASONS,
  SIDES,
  TRADE_STATES,
  TRADE_TYPES,
  UNSOLICITED_CXL_REASONS,
} from '../../enums.ts';
import type { CancelReject, Execution, LegPrice, Trade } from '../../types/execution.ts';
import { message, msg } from '../codec.ts';
import { bool, commission, date, enumOf, json, list, price, qty, str, time } from '../fields.ts';
import { orderCodec, sideField } from './order.ts';

/** Family A sends a leg's side as a plain string: `SIDE_BUY` or the short `BUY` are both accepted. */
const legSideField = enumOf(SIDES, 'Side', {
  camelAliases: { UNDEFINED: 'SIDE_UNDEFINED', BUY: 'SIDE_BUY', SELL: 'SIDE_SELL' },
});

export const legPriceCodec = message<LegPrice>({
  name: 'LegPrice',
  scope: { symbolAt: ['symbol'] },
  fields: {
    symbol: str(),
    anchor: bool(),
    px: price(),
    qty: qty(),
    referencePx: price(),
    side: legSideField,
  },
});

export const executionCodec = message<Execution>({
  name: 'Execution',
  scope: { symbolAt: ['order', 'symbol'] },
  fields: {
    id: str(),
    order: msg(orderCodec),
    tradeId: str(),
    traceId: str(),
    text: str(),
    lastPx: price(),
    lastShares: qty(),
    commissionNotionalCollected: commission(),
    commissionSpreadPx: price(),
    aggressor: bool(),
    type: enumOf(EXECUTION_TYPES, 'ExecutionType'),
    orderRejectReason: enumOf(ORD_REJECT_REASONS, 'OrdRejectReason'),
    unsolicitedCancelReason: enumOf(UNSOLICITED_CXL_REASONS, 'UnsolicitedCxlReason'),
    // the trade date before the time: a history file's trade lines keep `transactTime` last in the aggressor
    // execution, where the replay's fast scan expects it (backtest/tape/trade-scan.ts)
    transactTradeDate: date(),
    transactTime: time(),
    legPrices: list(msg(legPriceCodec)),
  },
});

export const tradeCodec = message<Trade>({
  name: 'Trade',
  fields: {
    id: str(),
    aggressor: msg(executionCodec),
    passive: msg(executionCodec),
    tradeType: enumOf(TRADE_TYPES, 'TradeType'),
    state: enumOf(TRADE_STATES, 'TradeState'),
    reportingCounterparty: sideField,
    text: str(),
    tradeLinkId: str(),
    metadata: json(),
  },
});

export const cancelRejectCodec = message<CancelReject>({
  name: 'CancelReject',
  fields: {
    clordId: str(),
    orderId: str(),
    text: str(),
    isReplace: bool(),
    rejectReason: enumOf(CXL_REJ_REASONS, 'CxlRejReason'),
    transactTime: time(),
  },
});
