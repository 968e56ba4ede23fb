/**
 * The web console's wire shapes as zod schemas, and the types the feed and the routes build from them: the
 * snapshot the feed sends (`GET /console/api/state`, each server-sent event), checked before it leaves, and
 * the command bodies the routes accept (the trading-state command is the control endpoint's own schema).
 * Amounts are decimal strings, never floats; times are epoch milliseconds; counts are integers.
 */
import { z } from 'zod';
import type { TradingStateCause } from '../../engine/risk/trading-state.ts';
import { TRADING_STATES } from '../../engine/risk/trading-states.ts';

export { tradingStateCommandSchema, type TradingStateCommand } from '../live/control-command.ts';

const DECIMAL_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const decimalText = z.string().regex(DECIMAL_TEXT, 'expected a decimal string such as "0.55"');
const epochMs = z.number().int().nonnegative();
const count = z.number().int().nonnegative();
const side = z.enum(['BUY', 'SELL']);

const CAUSES = ['operator', 'feed', 'dailyLoss', 'strategyError'] as const satisfies readonly TradingStateCause[];
// every cause is listed (a new cause fails the typecheck here)
const causesListed: readonly (typeof CAUSES)[number][] = [] as TradingStateCause[];
void causesListed;

const tradingStateSchema = z.strictObject({ state: z.enum(TRADING_STATES), cause: z.enum(CAUSES), reason: z.string() });

const levelSchema = z.strictObject({
  price: decimalText,
  qty: decimalText,
  /** Quantity of the bot's own open orders at this price on this side ("0" when none). */
  own: decimalText,
});

const streamHealthSchema = z.strictObject({
  connected: z.boolean(),
  /** Milliseconds since the last message; null before the first. */
  lastMessageAgeMs: z.number().nonnegative().nullable(),
  reconnects: count,
});

/**
 * One strategy of `bot.strategies` (#25): its id, plugin, symbols and own trading state, and the figures of
 * its part of run.summary (strategy-members.ts `countersSummary`): counts, refusals by code, net PnL, positions.
 */
export const consoleStrategySchema = z.strictObject({
  id: z.string().min(1),
  strategy: z.string().min(1),
  symbols: z.array(z.string()),
  tradingState: tradingStateSchema,
  orders: count,
  fills: count,
  refusals: count,
  refusalsByCode: z.record(z.string(), count),
  pnl: decimalText,
  /** Net position per symbol over its accounts. */
  positions: z.record(z.string(), decimalText),
});

export const consoleSnapshotSchema = z.strictObject({
  time: epochMs,
  strategy: z.string(),
  symbols: z.array(z.string()),
  tradingState: tradingStateSchema,
  pnl: z.strictObject({ realized: decimalText, unrealized: decimalText, fees: decimalText, net: decimalText, equity: decimalText }),
  /** Net PnL once a second, oldest first. */
  equity: z.array(z.strictObject({ time: epochMs, net: decimalText })),
  positions: z.array(z.strictObject({ account: z.string(), symbol: z.string(), qty: decimalText, avgPx: decimalText })),
  openOrders: z.array(
    z.strictObject({
      clordId: z.string(),
      symbol: z.string(),
      side,
      price: decimalText.nullable(),
      leavesQty: decimalText,
      state: z.string(),
    }),
  ),
  /** Newest first. */
  fills: z.array(z.strictObject({ time: epochMs, symbol: z.string(), side, qty: decimalText, price: decimalText })),
  refusals: z.strictObject({
    byCode: z.record(z.string(), count),
    /** Newest first. */
    latest: z.array(z.strictObject({ time: epochMs, code: z.string(), message: z.string() })),
  }),
  streams: z.strictObject({ market: streamHealthSchema, orders: streamHealthSchema }),
  messages: z.strictObject({ perSecond: count, limit: count, sent: count }),
  counters: z.strictObject({ orders: count, fills: count, refusals: count }),
  books: z.array(
    z.strictObject({
      symbol: z.string(),
      stale: z.boolean(),
      bids: z.array(levelSchema),
      offers: z.array(levelSchema),
      lastTrade: decimalText.nullable(),
    }),
  ),
  /** With bot.strategies only (absent with the single bot.strategy: the snapshot is what it always was). */
  strategies: z.array(consoleStrategySchema).optional(),
});

export type ConsoleSnapshot = z.infer<typeof consoleSnapshotSchema>;
export type ConsoleStrategy = z.infer<typeof consoleStrategySchema>;
export type ConsoleLevel = z.infer<typeof levelSchema>;
export type StreamHealth = z.infer<typeof streamHealthSchema>;

/** `POST /console/api/cancel-all`: an empty JSON object. */
export const cancelAllCommandSchema = z.strictObject({});
