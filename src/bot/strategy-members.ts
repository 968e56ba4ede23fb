/**
 * From the checked strategies of a `bot.strategies` config (strategy-specs.ts) to what the pipeline runs
 * (#25): each strategy's symbols, default account, limits (the bot's risk section with its own keys over it)
 * and its own portfolio; and, once the run stopped, the per-strategy parts of `run.summary` and report.json,
 * whose counts, PnL and positions add up exactly to the totals (what no strategy explains, such as what a
 * final reconciliation with the exchange booked or the fills of adopted orders, is `unattributed`); run.summary's
 * parts also tell each strategy's own trading state.
 */
import type { RiskConfig } from '../engine/risk/config.ts';
import { Decimal, ZERO } from '../domain/decimal.ts';
import { TradebotError } from '../errors.ts';
import { symbolsOf } from '../engine/strategy/define-strategy.ts';
import type { StrategyMemberOptions, StrategyPart } from '../engine/pipeline/strategies.ts';
import type { Portfolio } from '../engine/portfolio/index.ts';
import { portfolioPort } from '../engine/portfolio-port.ts';
import type { RunCounters } from '../engine/run-counters.ts';
import type { StrategySpec } from './strategy-specs.ts';

export interface StrategyMembers {
  readonly members: readonly StrategyMemberOptions[];
  /** Each strategy's portfolio, by id (for the summary). */
  readonly portfolios: ReadonlyMap<string, Portfolio>;
  /** Every symbol a strategy trades, once. */
  readonly symbols: readonly string[];
}

/** The pipeline's members (RUN_NO_SYMBOLS when a strategy trades none). */
export function strategyMembers(
  specs: readonly StrategySpec[],
  bot: { account: string; risk: RiskConfig; portfolio: () => Portfolio },
): StrategyMembers {
  const portfolios = new Map<string, Portfolio>();
  const members = specs.map((spec): StrategyMemberOptions => {
    const symbols = symbolsOf(spec.definition, spec.params);
    if (symbols.length === 0)
      throw new TradebotError('RUN_NO_SYMBOLS', `strategy ${spec.id} trades no symbols: set its params.symbols (or symbol)`, {
        kind: 'config',
      });
    const portfolio = bot.portfolio();
    portfolios.set(spec.id, portfolio);
    return {
      id: spec.id,
      strategy: spec.definition,
      params: spec.params,
      symbols,
      account: spec.account ?? bot.account,
      risk: { ...bot.risk, ...spec.risk },
      portfolio: portfolioPort(portfolio),
    };
  });
  return { members, portfolios, symbols: [...new Set(members.flatMap((m) => m.symbols))] };
}

/** One strategy's part of the summary. */
export interface StrategySummary {
  fills: number;
  orders: number;
  refusals: number;
  refusalsByCode: Record<string, number>;
  pnl: string;
  positions: Record<string, string>;
}

/** Net position per symbol over every account of a portfolio, as decimal strings. */
export function positionsOf(portfolio: Portfolio): Record<string, string> {
  const out: Record<string, Decimal> = {};
  for (const a of portfolio.snapshot().accounts) for (const p of a.positions) out[p.symbol] = (out[p.symbol] ?? ZERO).plus(p.qty);
  return Object.fromEntries(Object.entries(out).map(([s, q]) => [s, q.toString()]));
}

/** Counts, PnL and positions of one counter set and its portfolio (a strategy's part, or the run's totals). */
export function countersSummary(counters: RunCounters, portfolio: Portfolio): StrategySummary {
  return {
    fills: counters.fills,
    orders: counters.orders,
    refusals: counters.refusalCount,
    refusalsByCode: { ...counters.refusals },
    pnl: portfolio.snapshot().totals.netPnl.toString(),
    positions: positionsOf(portfolio),
  };
}

/**
 * The per-strategy parts and what is left of the totals (`unattributed`, absent when nothing is): the totals
 * minus the parts, exactly, so parts + unattributed = totals for every count, the PnL and every position.
 */
export function strategyParts(
  parts: ReadonlyMap<string, StrategyPart>,
  portfolios: ReadonlyMap<string, Portfolio>,
  totals: StrategySummary,
): { strategies: Record<string, StrategySummary>; unattributed?: StrategySummary } {
  const strategies: Record<string, StrategySummary> = {};
  for (const [id, part] of parts) {
    const portfolio = portfolios.get(id);
    if (portfolio !== undefined) strategies[id] = countersSummary(part.counters, portfolio);
  }
  const all = Object.values(strategies);
  const count = (key: 'fills' | 'orders' | 'refusals') => totals[key] - all.reduce((n, s) => n + s[key], 0);
  const codes: Record<string, number> = {};
  for (const [code, n] of Object.entries(totals.refusalsByCode)) {
    const left = n - all.reduce((m, s) => m + (s.refusalsByCode[code] ?? 0), 0);
    if (left !== 0) codes[code] = left;
  }
  const positions: Record<string, string> = {};
  for (const symbol of new Set([...Object.keys(totals.positions), ...all.flatMap((s) => Object.keys(s.positions))])) {
    const left = all.reduce((q, s) => q.minus(s.positions[symbol] ?? '0'), new Decimal(totals.positions[symbol] ?? '0'));
    if (!left.isZero()) positions[symbol] = left.toString();
  }
  const pnl = all.reduce((p, s) => p.minus(s.pnl), new Decimal(totals.pnl));
  const unattributed = { fills: count('fills'), orders: count('orders'), refusals: count('refusals'), refusalsByCode: codes };
  const nothingLeft =
    unattributed.fills === 0 &&
    unattributed.orders === 0 &&
    unattributed.refusals === 0 &&
    pnl.isZero() &&
    Object.keys(positions).length === 0;
  return nothingLeft ? { strategies } : { strategies, unattributed: { ...unattributed, pnl: pnl.toString(), positions } };
}

/** A strategy's own trading state at the end of a run (run.summary; the backtest's report has none). */
export interface StrategyStateSummary {
  tradingState: string;
  tradingStateCause: string;
  tradingStateReason: string;
}

/** Each part of `strategies` with its strategy's own trading state, what holds it and why. */
export function withTradingStates(
  strategies: Record<string, StrategySummary>,
  parts: ReadonlyMap<string, StrategyPart>,
): Record<string, StrategySummary & StrategyStateSummary> {
  const out: Record<string, StrategySummary & StrategyStateSummary> = {};
  for (const [id, summary] of Object.entries(strategies)) {
    const state = parts.get(id)?.risk.tradingState;
    if (state === undefined) continue;
    out[id] = { ...summary, tradingState: state.state, tradingStateCause: state.cause, tradingStateReason: state.reason };
  }
  return out;
}
