/**
 * The matching engine's executions and cancel rejects of bot orders as the order stream's events
 * (domain objects built by src/sim/exchange/to-domain.ts, the simulator's own mapper), with the
 * commission the exchange would collect: notional x basis points carried on the order (the maker rate
 * when the order rested, the taker rate when it took liquidity).
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import { ZERO } from '../../src/domain/decimal.ts';
import type { CancelReject as DomainCancelReject, InstrumentScales } from '../../src/domain/index.ts';
import type { CancelRejectEvent, ExecutionEvent } from '../../src/domain/stream-events.ts';
import { domainPrice, domainQty, toDomainExecution } from '../../src/sim/exchange/to-domain.ts';
import type { CancelReject, Execution } from '../../src/sim/matching/index.ts';

export const SESSION_ID = 'backtest';

export interface Commissions {
  readonly makerBps: Decimal;
  readonly takerBps: Decimal;
}

export function executionEvent(execution: Execution, scales: InstrumentScales, commissions: Commissions): ExecutionEvent {
  const fee =
    execution.lastQty > 0
      ? domainPrice(execution.lastPx, scales)
          .times(domainQty(execution.lastQty, scales))
          .times(execution.aggressor ? commissions.takerBps : commissions.makerBps)
          .div(10_000)
      : ZERO;
  // the fee goes into the execution as it is built (a spread of the 16-field execution costs microseconds)
  return { type: 'execution', execution: toDomainExecution(execution, scales, {}, fee), sessionId: SESSION_ID };
}

export function cancelRejectEvent(reject: CancelReject): CancelRejectEvent {
  const cancelReject: DomainCancelReject = {
    clordId: reject.clordId ?? '',
    orderId: reject.orderId ?? '',
    text: reject.text,
    isReplace: reject.isReplace,
    rejectReason: reject.reason,
    transactTime: reject.transactTime,
  };
  return { type: 'cancelReject', cancelReject, sessionId: SESSION_ID };
}
