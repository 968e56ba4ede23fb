/**
 * The journal's entries: one JSON object per line, validated with these schemas when read back (the
 * journal is a file, so it is a boundary). Decimals are strings (`"0.41"`), times epoch milliseconds, sides
 * `BUY` / `SELL`, order types and times in force in the venue's names. Optional fields are left out.
 *
 * - runStart     a run began (its random runId).
 * - checkpoint   first line of a compacted journal: every runId seen so far and the id counters reached, so
 *                a later run never reissues an id even though the old requests are gone.
 * - intent       a risk-approved intent entered the execution adapter (audit trail).
 * - request      a venue call is about to leave: insert, cancel, replace or cross (one entry per order; a
 *                cross has two, sharing the crossId). Durable (fsynced) before the call is made.
 * - ack          the exchange named the order id (insert response, or the first stream event naming it).
 * - execution    an execution of one of our orders: cumulative quantity, average price and resulting state.
 * - resolved     an order's state settled by other evidence (lookup, snapshot, cancel reject).
 * - sendFailed   the insert call failed: REJECTED (the exchange never took it) or UNKNOWN (needs a lookup).
 * - open         an order still open at a clean stop, written by compaction (request + what is known).
 * - holding      with several strategies (`bot.strategies`): a strategy's position in one account and symbol
 *                after a fill, reversal or settlement changed it (quantity and cost; the last line wins), and
 *                at compaction every one not flat, so a restarted strategy has its own positions again.
 * - runStop      a run stopped cleanly.
 */
import { z } from 'zod';
import { isDecimalString } from '../../domain/decimal.ts';
import { SELF_MATCH_PREVENTION_INSTRUCTIONS } from '../../domain/enums.ts';
import { TRACKED_STATES } from '../orders/types.ts';

const decimalText = z.string().refine(isDecimalString, { error: 'expected a decimal string' });
const id = z.string().min(1);
const time = z.number().int().nonnegative();
const side = z.enum(['BUY', 'SELL']);
const state = z.enum(TRACKED_STATES);
const orderType = z.enum(['ORDER_TYPE_LIMIT', 'ORDER_TYPE_MARKET_TO_LIMIT']);
const timeInForce = z.enum([
  'TIME_IN_FORCE_DAY',
  'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
  'TIME_IN_FORCE_FILL_OR_KILL',
]);

/** What an insert (or a cross leg) asked for: enough to track the order again after a restart. */
export const orderTermsSchema = z.object({
  account: id,
  symbol: id,
  side,
  qty: decimalText,
  price: decimalText.optional(),
  orderType,
  timeInForce,
  postOnly: z.boolean(),
  selfMatchPrevention: z.enum(SELF_MATCH_PREVENTION_INSTRUCTIONS).optional(),
});
export type OrderTerms = z.output<typeof orderTermsSchema>;

export const idCountersSchema = z.object({
  intents: z.number().int().nonnegative(),
  orders: z.number().int().nonnegative(),
  crosses: z.number().int().nonnegative(),
});
export type IdCounters = z.output<typeof idCountersSchema>;

const runStart = z.object({ type: z.literal('runStart'), time, runId: id });
const checkpoint = z.object({ type: z.literal('checkpoint'), time, runIds: z.array(id), counters: idCountersSchema });
const intent = z.object({
  type: z.literal('intent'),
  time,
  intentId: id,
  kind: z.enum(['place', 'cancel', 'replace', 'cancelAll', 'cross']),
  strategy: z.string(),
  symbol: z.string().optional(),
  clordId: z.string().optional(),
  newClordId: z.string().optional(),
  crossId: z.string().optional(),
  label: z.string().optional(),
});
const insertRequest = z.object({ type: z.literal('request'), kind: z.literal('insert'), time, clordId: id, terms: orderTermsSchema });
const crossRequest = z.object({
  type: z.literal('request'),
  kind: z.literal('cross'),
  time,
  clordId: id,
  crossId: id,
  allOrNone: z.boolean(),
  terms: orderTermsSchema,
});
const cancelRequest = z.object({
  type: z.literal('request'),
  kind: z.literal('cancel'),
  time,
  clordId: id,
  orderId: id,
  account: z.string().optional(),
  symbol: id,
});
const replaceRequest = z.object({
  type: z.literal('request'),
  kind: z.literal('replace'),
  time,
  /** The clordId the order takes after the replace. */
  clordId: id,
  /** The order's clordId before it. */
  origClordId: id,
  orderId: id,
  account: z.string().optional(),
  symbol: id,
  side: side.optional(),
  qty: decimalText.optional(),
  price: decimalText.optional(),
});
const ack = z.object({ type: z.literal('ack'), time, clordId: id, orderId: id });
const execution = z.object({
  type: z.literal('execution'),
  time,
  executionId: z.string(),
  executionType: z.string(),
  clordId: id,
  orderId: z.string().optional(),
  cumQty: decimalText,
  avgPx: decimalText,
  state,
});
const resolved = z.object({
  type: z.literal('resolved'),
  time,
  clordId: id,
  orderId: z.string().optional(),
  cause: z.enum(['lookup', 'snapshot', 'cancelReject']),
  cumQty: decimalText,
  avgPx: decimalText,
  state,
});
const sendFailed = z.object({
  type: z.literal('sendFailed'),
  time,
  clordId: id,
  state: z.enum(['REJECTED', 'UNKNOWN']),
  code: z.string().optional(),
  message: z.string(),
});
const open = z.object({
  type: z.literal('open'),
  time,
  clordIds: z.array(id).min(1),
  orderId: z.string().optional(),
  crossId: z.string().optional(),
  terms: orderTermsSchema,
  cumQty: decimalText,
  avgPx: decimalText,
  state,
  intentId: z.string().optional(),
  label: z.string().optional(),
});
const holding = z.object({
  type: z.literal('holding'),
  time,
  strategy: id,
  account: id,
  symbol: id,
  qty: decimalText,
  cost: decimalText,
});
const runStop = z.object({ type: z.literal('runStop'), time, runId: id, openOrders: z.number().int().nonnegative() });

const request = z.union([insertRequest, crossRequest, cancelRequest, replaceRequest]);

export const journalEntrySchema = z.union([
  runStart,
  checkpoint,
  intent,
  request,
  ack,
  execution,
  resolved,
  sendFailed,
  open,
  holding,
  runStop,
]);

export type JournalEntry = z.output<typeof journalEntrySchema>;
export type RequestEntry = z.output<typeof request>;
export type InsertRequestEntry = z.output<typeof insertRequest>;
export type CrossRequestEntry = z.output<typeof crossRequest>;
export type OpenOrderEntry = z.output<typeof open>;
export type HoldingEntry = z.output<typeof holding>;
export type EntryOf<T extends JournalEntry['type']> = Extract<JournalEntry, { type: T }>;

/** One line of the file (no newline). */
export function encodeEntry(entry: JournalEntry): string {
  return JSON.stringify(entry);
}

/** The entry on one line, or undefined when the line is not a valid entry. */
export function decodeEntry(line: string): JournalEntry | undefined {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = journalEntrySchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
