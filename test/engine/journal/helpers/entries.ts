/**
 * Journal entries for tests: a request, ack, execution etc. with the defaults a test does not care about,
 * and a warnings sink that records what the journal tolerated.
 */
import type { JournalEntry, JournalWarnings, OrderTerms } from '../../../../src/engine/journal/index.ts';

export const ACCOUNT = 'firms/demo/accounts/alice-main';
export const SYMBOL = 'RAIN-NYC-2026-12-01';

export function terms(overrides: Partial<OrderTerms> = {}): OrderTerms {
  return {
    account: ACCOUNT,
    symbol: SYMBOL,
    side: 'BUY',
    qty: '5',
    price: '0.41',
    orderType: 'ORDER_TYPE_LIMIT',
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    postOnly: true,
    ...overrides,
  };
}

export const runStart = (runId: string, time = 1): JournalEntry => ({ type: 'runStart', time, runId });
export const insert = (clordId: string, overrides: Partial<OrderTerms> = {}, time = 2): JournalEntry => ({
  type: 'request',
  kind: 'insert',
  time,
  clordId,
  terms: terms(overrides),
});
export const ack = (clordId: string, orderId: string, time = 3): JournalEntry => ({ type: 'ack', time, clordId, orderId });
export const execution = (
  clordId: string,
  orderId: string,
  cumQty: string,
  state: 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED',
  avgPx = '0.41',
  time = 4,
): JournalEntry => ({
  type: 'execution',
  time,
  executionId: `E-${clordId}-${cumQty}-${state}`,
  executionType: state === 'CANCELED' ? 'EXECUTION_TYPE_CANCELED' : cumQty === '0' ? 'EXECUTION_TYPE_NEW' : 'EXECUTION_TYPE_PARTIAL_FILL',
  clordId,
  orderId,
  cumQty,
  avgPx,
  state,
});

export interface RecordedWarnings extends JournalWarnings {
  readonly seen: { details: object; message: string }[];
}

export function recordWarnings(): RecordedWarnings {
  const seen: { details: object; message: string }[] = [];
  return { seen, warn: (details, message) => void seen.push({ details, message }) };
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
