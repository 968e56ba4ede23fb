/**
 * The shape of the simulator's state file (version 1), validated with zod when it is read back: a file
 * that does not match is refused with every problem named by path, never half-loaded. Raw prices and
 * quantities are the engine's safe integers; money is decimal text.
 *
 *   {"version": 1, "savedAt": <epoch ms>,
 *    "engine": {"counters": {...}, "books": [...], "orders": [<working order>...]},
 *    "ledger": {"balances": [{account, cash, updateTime}], "positions": [{account, symbol, net, cost, realizedPnl, updateTime}]},
 *    "orders": [<history record>...], "clordIndex": [[account, clordId, orderId]...],
 *    "trades": [<trade>...], "stats": [<per symbol>...]}
 */
import { z } from 'zod';
import {
  ExecutionType,
  InstrumentState,
  OrdRejectReason,
  OrderState,
  OrderType,
  SelfMatchPrevention,
  Side,
  TimeInForce,
  TradeType,
} from '../matching/types.ts';

export const STATE_FILE_VERSION = 1;

const values = <T extends Record<string, string>>(o: T) => z.enum(Object.values(o) as [T[keyof T], ...T[keyof T][]]);
const int = () => z.number().int();
const safe = () => z.number().int().refine(Number.isSafeInteger, 'expected a safe integer');
const opt = <T extends z.ZodType>(schema: T) => schema.optional();
const decimalText = () => z.string().regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i, 'expected decimal text such as "12.5"');

const terms = z.object({
  orderSeq: safe(),
  symbol: z.string(),
  side: values(Side),
  type: values(OrderType),
  timeInForce: values(TimeInForce),
  price: opt(safe()),
  stopPrice: opt(safe()),
  orderQty: safe(),
  minQty: opt(safe()),
  allOrNone: z.boolean(),
  participateDontInitiate: z.boolean(),
  goodTillTime: opt(safe()),
  account: z.string(),
  clordId: opt(z.string()),
  origClordId: opt(z.string()),
  participant: opt(z.string()),
  selfMatchPreventionId: opt(z.string()),
  selfMatchPreventionInstruction: opt(values(SelfMatchPrevention)),
  commissionBasisPoints: opt(z.number()),
  makerCommissionBasisPoints: opt(z.number()),
  tag: z.unknown().optional(),
  crossId: opt(z.string()),
  triggered: z.boolean(),
  insertTime: safe(),
});

const fillState = { state: values(OrderState), cumQty: safe(), leavesQty: safe(), cumNotional: safe() };

const workingOrder = z.object({ terms, ...fillState, price: safe(), priority: safe(), stop: z.boolean() });

export const executionSchema = z.object({
  seq: safe(),
  type: values(ExecutionType),
  terms,
  ...fillState,
  lastPx: safe(),
  lastQty: safe(),
  aggressor: z.boolean(),
  tradeSeq: safe(),
  transactTime: safe(),
  orderRejectReason: values(OrdRejectReason),
  text: z.string(),
});

const record = z.object({
  latest: z.object({ terms, ...fillState }),
  firstClordId: opt(z.string()),
  fills: z.array(z.tuple([safe(), safe()])),
  lastTradeId: opt(z.string()),
  lastTransactTime: opt(safe()),
});

const trade = z.object({
  seq: safe(),
  type: values(TradeType),
  symbol: z.string(),
  price: safe(),
  qty: safe(),
  time: safe(),
  aggressor: executionSchema,
  passive: executionSchema,
});

const stats = z.object({
  symbol: z.string(),
  open: opt(safe()),
  high: opt(safe()),
  low: opt(safe()),
  last: opt(safe()),
  sharesTraded: safe(),
  notionalTraded: safe(),
  settlement: opt(safe()),
});

export const stateFileSchema = z.object({
  version: z.literal(STATE_FILE_VERSION, { error: `expected "version": ${STATE_FILE_VERSION}` }),
  savedAt: safe(),
  engine: z.object({
    counters: z.object({ order: int().min(0), exec: int().min(0), trade: int().min(0), priority: int().min(0) }),
    books: z.array(z.object({ symbol: z.string(), state: values(InstrumentState), lastPx: opt(safe()), settlementPx: opt(safe()) })),
    orders: z.array(workingOrder),
  }),
  ledger: z.object({
    balances: z.array(z.object({ account: z.string(), cash: decimalText(), updateTime: safe() })),
    positions: z.array(
      z.object({
        account: z.string(),
        symbol: z.string(),
        net: safe(),
        cost: decimalText(),
        realizedPnl: decimalText(),
        updateTime: safe(),
      }),
    ),
  }),
  orders: z.array(record),
  clordIndex: z.array(z.tuple([z.string(), z.string(), z.string()])),
  trades: z.array(trade),
  stats: z.array(stats),
});

export type StateFile = z.output<typeof stateFileSchema>;
export type ExecutionJson = z.output<typeof executionSchema>;
