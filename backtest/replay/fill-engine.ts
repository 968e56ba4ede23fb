/**
 * The backtest's fills, made by the simulator's own MatchingEngine (src/sim/matching). The engine's book
 * holds only the bot's orders; the rest of the market exists as a MarketModel per symbol. Two rules:
 *  - Aggressive: when a bot order arrives crossing the market model (or is market-to-limit), the model's
 *    contra levels up to the order's limit are entered as resting orders of the tape account, the bot
 *    order is submitted, then whatever is left of those levels is cancelled and the model gives up what
 *    was taken. So an aggressive order fills only against shown liquidity, at shown prices (post-only
 *    orders are rejected as the exchange would). Levels that would cross the bot's own resting orders on
 *    the order's side are left out (they would have traded with those first).
 *  - Passive: for each tape trade, RestingOrders.allocate decides what the bot's resting orders get
 *    (trade-through, or queue ahead used up at the price); one opposite IOC order of the tape account
 *    for that quantity, limited at the trade price, makes the engine fill exactly those.
 * Results are the engine's executions of bot orders (tape-account executions are dropped).
 */
import { MatchingEngine, type CancelReject, type EngineResult, type Execution } from '../../src/sim/matching/index.ts';
import type { CrossRequest, InstrumentDefinition, OrderRequest, ReplaceRequest } from '../../src/sim/matching/types.ts';
import type { MarketModel } from './market-model.ts';
import { queueAhead, type QueueAheadModel } from './queue-model.ts';
import { RestingOrders, type TradeThroughFill } from './resting-orders.ts';
import type { VolumeWindow } from './volume-window.ts';

export const TAPE_ACCOUNT = 'firms/backtest/accounts/tape';

export interface BotOutcome {
  readonly executions: readonly Execution[];
  readonly cancelRejects: readonly CancelReject[];
}

export interface FillEngineOptions {
  readonly clock: { now(): number };
  readonly instruments: readonly InstrumentDefinition[];
  readonly models: ReadonlyMap<string, MarketModel>;
  readonly volumes: ReadonlyMap<string, VolumeWindow>;
  readonly queueModel: QueueAheadModel;
  /** How much a print through a resting order's price fills it (default full). */
  readonly tradeThrough?: TradeThroughFill;
}

const WORKING = new Set(['ORDER_STATE_NEW', 'ORDER_STATE_PARTIALLY_FILLED']);
const NO_REJECTS: readonly CancelReject[] = Object.freeze([]);

export class FillEngine {
  readonly engine: MatchingEngine;
  private readonly resting = new Map<string, RestingOrders>();
  private readonly lots = new Map<string, number>();
  private priority = 0;
  private tapeSeq = 0;

  constructor(private readonly options: FillEngineOptions) {
    this.engine = new MatchingEngine({ clock: options.clock, idPrefix: 'BT' });
    for (const def of options.instruments) {
      this.engine.addInstrument(def);
      this.resting.set(def.symbol, new RestingOrders(options.tradeThrough));
      this.lots.set(def.symbol, def.lotSize);
    }
  }

  /** The bot's resting orders of a symbol (read-only use). */
  restingOf(symbol: string): RestingOrders | undefined {
    return this.resting.get(symbol);
  }

  submit(request: OrderRequest): BotOutcome {
    const limit = request.type === 'ORDER_TYPE_MARKET_TO_LIMIT' ? undefined : request.price;
    return this.outcome(this.withLiquidity(request.symbol, request.side === 'SIDE_BUY', limit, () => this.engine.submit(request)));
  }

  cancel(orderId: string, symbol: string): BotOutcome {
    return this.outcome(this.engine.cancel({ orderId, symbol }));
  }

  replace(request: ReplaceRequest): BotOutcome {
    const order = request.orderId === undefined ? undefined : this.engine.getOrder(request.orderId);
    if (order === undefined || order.order.price === undefined) return this.outcome(this.engine.replace(request));
    const price = request.price ?? order.order.price;
    return this.outcome(this.withLiquidity(order.order.symbol, order.order.side === 'SIDE_BUY', price, () => this.engine.replace(request)));
  }

  /**
   * Runs `action` (a bot order entering the book at `limit`, undefined = market-to-limit) with the market
   * model's contra liquidity it can reach entered as tape orders, then withdraws what is left of them.
   */
  private withLiquidity(symbol: string, buy: boolean, limit: number | undefined, action: () => EngineResult): EngineResult {
    const model = this.options.models.get(symbol);
    const contra = model?.levels(buy ? 'ask' : 'bid', this.options.clock.now()) ?? [];
    const top = contra[0];
    const crosses = top !== undefined && (limit === undefined || (buy ? limit >= top.price : limit <= top.price));
    if (model === undefined || !crosses) return action();
    const own = this.bestOwn(symbol, buy);
    const lot = this.lots.get(symbol) ?? 1;
    const placed: { orderId: string; price: number; qty: number }[] = [];
    for (const level of contra) {
      if (limit !== undefined && (buy ? level.price > limit : level.price < limit)) break;
      if (own !== undefined && (buy ? level.price <= own : level.price >= own)) continue;
      const qty = Math.floor(level.qty / lot) * lot;
      if (qty <= 0) continue;
      const entered = this.engine.submit(this.tapeOrder(symbol, !buy, level.price, qty, 'TIME_IN_FORCE_DAY'));
      const orderId = entered.executions[0]?.order.orderId;
      if (orderId !== undefined) placed.push({ orderId, price: level.price, qty });
    }
    const result = action();
    for (const p of placed) {
      const left = this.engine.getOrder(p.orderId)?.leavesQty ?? 0;
      if (left < p.qty) model.consume(buy ? 'ask' : 'bid', p.price, p.qty - left);
    }
    if (placed.length > 0) this.engine.massCancel({ account: TAPE_ACCOUNT, symbol });
    return result;
  }

  cross(request: CrossRequest): BotOutcome {
    return this.outcome(this.engine.cross(request));
  }

  /** Passive fills one tape trade gives the bot's resting orders (call before the model sees the trade). */
  onTrade(symbol: string, price: number, qty: number, aggressorBuys: boolean): BotOutcome | undefined {
    const resting = this.resting.get(symbol);
    if (resting === undefined || resting.size === 0) return undefined;
    return this.passive(resting, symbol, price, qty, aggressorBuys);
  }

  /** onTrade with the symbol's resting orders already at hand (restingOf). */
  passive(resting: RestingOrders, symbol: string, price: number, qty: number, aggressorBuys: boolean): BotOutcome | undefined {
    if (!resting.touchedBy(price, aggressorBuys)) return undefined;
    const allocations = resting.allocate(price, qty, aggressorBuys);
    if (allocations.length === 0) return undefined;
    const lot = this.lots.get(symbol) ?? 1;
    const executions: Execution[] = [];
    for (const a of allocations) {
      const total = Math.floor(a.qty / lot) * lot;
      if (total <= 0) continue;
      const outcome = this.outcome(this.engine.submit(this.tapeOrder(symbol, !a.buy, a.limit, total, 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL')));
      executions.push(...outcome.executions);
    }
    return { executions, cancelRejects: [] };
  }

  /** See RestingOrders.capQueueAhead: used where the market model shows observed levels (recordings). */
  capQueueAhead(symbol: string, shown: (buy: boolean, price: number) => number | undefined): void {
    this.resting.get(symbol)?.capQueueAhead(shown);
  }

  settle(symbol: string, rawPrice: number): BotOutcome {
    return this.outcome(this.engine.settle(symbol, rawPrice));
  }

  /** The instrument expires without a settlement price: the bot's working orders expire. */
  expire(symbol: string): BotOutcome {
    return this.outcome(this.engine.setInstrumentState(symbol, 'INSTRUMENT_STATE_EXPIRED'));
  }

  private bestOwn(symbol: string, buy: boolean): number | undefined {
    let best: number | undefined;
    for (const o of this.resting.get(symbol)?.all() ?? []) {
      if (o.buy === buy && (best === undefined || (buy ? o.price > best : o.price < best))) best = o.price;
    }
    return best;
  }

  private tapeOrder(symbol: string, buy: boolean, price: number, qty: number, timeInForce: OrderRequest['timeInForce']): OrderRequest {
    this.tapeSeq += 1;
    return {
      symbol,
      side: buy ? 'SIDE_BUY' : 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      price,
      orderQty: qty,
      timeInForce,
      account: TAPE_ACCOUNT,
      clordId: `tape-${this.tapeSeq}`,
    };
  }

  /** Keeps RestingOrders in step with the engine and returns the bot's share of the result. */
  private outcome(result: EngineResult): BotOutcome {
    const executions: Execution[] = [];
    for (const e of result.executions) if (e.order.account !== TAPE_ACCOUNT) executions.push(e);
    if (executions.length === 1) {
      const e = executions[0] as Execution;
      this.track(e.order.orderId, e);
    } else if (executions.length > 1) {
      // each order's last execution, in the order the orders first appear
      const last = new Map<string, Execution>();
      for (const e of executions) last.set(e.order.orderId, e);
      for (const [orderId, e] of last) this.track(orderId, e);
    }
    const cancelRejects = result.cancelRejects.length === 0 ? NO_REJECTS : result.cancelRejects.filter((r) => r.account !== TAPE_ACCOUNT);
    return { executions, cancelRejects };
  }

  private track(orderId: string, e: Execution): void {
    const symbol = e.order.symbol;
    const resting = this.resting.get(symbol);
    if (resting === undefined) return;
    const price = e.order.price;
    const working = WORKING.has(e.state) && e.leavesQty > 0 && price !== undefined && e.order.stopPrice === undefined;
    const known = resting.get(orderId);
    if (!working) {
      if (known !== undefined) resting.remove(orderId);
      return;
    }
    if (known !== undefined && known.price === price && e.leavesQty <= known.leaves) {
      known.leaves = e.leavesQty;
      return;
    }
    if (known !== undefined) resting.remove(orderId);
    const buy = e.order.side === 'SIDE_BUY';
    const now = this.options.clock.now();
    const model = this.options.models.get(symbol);
    const ahead = queueAhead(this.options.queueModel, {
      buy,
      price,
      sameSide: model?.levels(buy ? 'bid' : 'ask', now) ?? [],
      volume: this.options.volumes.get(symbol),
      now,
    });
    resting.add({ orderId, buy, price, leaves: e.leavesQty, queueAhead: ahead, priority: ++this.priority });
  }
}
