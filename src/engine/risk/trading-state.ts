/**
 * The trading state (kill switch): `active` lets everything through risk, `reducing` only intents that lower
 * exposure, `halted` only cancels. The state is the most severe of independent holds, so each cause can be
 * lifted without lifting the others:
 * - operator: `setState(state, reason)`; it also clears the daily-loss and strategy-error holds (the operator's
 *   decision replaces them) but not the feed hold, which is a fact only `feedFresh` can change;
 * - feed: `feedStale({ symbol } | 'all')` holds while any symbol (or the whole feed) is stale, released by
 *   `feedFresh`; going back to active after a fresh feed therefore happens only when nothing else holds;
 * - daily loss and strategy error: sticky until the operator sets a state.
 * `changes$` emits every change of the state with its cause and reason; `cancelAllRequired$` emits when the
 * state becomes halted, telling the engine to cancel every open order. Time comes from the injected clock.
 */
import { Subject, type Observable } from 'rxjs';
import type { Clock } from '../clock.ts';
import { riskStateError } from './errors.ts';

import { TRADING_STATES, isTradingState, type TradingState } from './trading-states.ts';

export { TRADING_STATES, isTradingState, type TradingState };
/** States a cause other than the operator can impose. */
export type RestrictedState = Exclude<TradingState, 'active'>;
export type TradingStateCause = 'operator' | 'feed' | 'dailyLoss' | 'strategyError';

export interface TradingStateChange {
  readonly from: TradingState;
  readonly to: TradingState;
  /** Which hold decides the new state ('operator' also when the operator lifted the last hold). */
  readonly cause: TradingStateCause;
  readonly reason: string;
  readonly time: number;
}

export interface CancelAllRequired {
  readonly cause: TradingStateCause;
  readonly reason: string;
  readonly time: number;
}

/** A whole feed (`'all'`) or one symbol's market data. */
export type FeedTarget = 'all' | { readonly symbol: string };

export interface TradingStateOptions {
  /** State while a market feed is stale or disconnected. Default reducing. */
  readonly onFeedStale?: RestrictedState;
  /** State after a strategy throws. Default halted. */
  readonly onStrategyError?: RestrictedState;
  /** State after the daily loss limit is reached. Default reducing. */
  readonly onDailyLoss?: RestrictedState;
}

interface Hold {
  readonly state: RestrictedState;
  readonly reason: string;
}

const SEVERITY: Record<TradingState, number> = { active: 0, reducing: 1, halted: 2 };
/** Order in which holds of equal severity name the cause. */
const PRECEDENCE: readonly TradingStateCause[] = ['operator', 'dailyLoss', 'strategyError', 'feed'];
const ALL_FEEDS = 'all';

/** The more restrictive of two states. */
export function stricterState(a: TradingState, b: TradingState): TradingState {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

export class TradingStateMachine {
  private readonly clock: Pick<Clock, 'now'>;
  private readonly options: Required<TradingStateOptions>;
  private readonly holds = new Map<TradingStateCause, Hold>();
  private readonly staleFeeds = new Set<string>();
  private current: TradingState = 'active';
  private currentCause: TradingStateCause = 'operator';
  private currentReason = 'start';
  private readonly changesSubject = new Subject<TradingStateChange>();
  private readonly cancelAllSubject = new Subject<CancelAllRequired>();

  readonly changes$: Observable<TradingStateChange> = this.changesSubject.asObservable();
  readonly cancelAllRequired$: Observable<CancelAllRequired> = this.cancelAllSubject.asObservable();

  constructor(clock: Pick<Clock, 'now'>, options: TradingStateOptions = {}) {
    this.clock = clock;
    this.options = {
      onFeedStale: options.onFeedStale ?? 'reducing',
      onStrategyError: options.onStrategyError ?? 'halted',
      onDailyLoss: options.onDailyLoss ?? 'reducing',
    };
  }

  get state(): TradingState {
    return this.current;
  }

  get cause(): TradingStateCause {
    return this.currentCause;
  }

  get reason(): string {
    return this.currentReason;
  }

  /** Symbols whose feed is stale ('all' when the whole feed is). */
  get staleSymbols(): readonly string[] {
    return [...this.staleFeeds];
  }

  /** Operator command. Throws RISK_STATE_INVALID for anything but active, reducing, halted. */
  setState(state: TradingState, reason: string, time = this.clock.now()): void {
    if (!isTradingState(state)) throw riskStateError(state);
    this.holds.delete('dailyLoss');
    this.holds.delete('strategyError');
    if (state === 'active') this.holds.delete('operator');
    else this.holds.set('operator', { state, reason });
    this.update(time, 'operator', reason);
  }

  feedStale(target: FeedTarget, time = this.clock.now()): void {
    this.staleFeeds.add(target === ALL_FEEDS ? ALL_FEEDS : target.symbol);
    this.refreshFeedHold();
    this.update(time);
  }

  feedFresh(target: FeedTarget, time = this.clock.now()): void {
    if (target === ALL_FEEDS) this.staleFeeds.clear();
    else this.staleFeeds.delete(target.symbol);
    this.refreshFeedHold();
    this.update(time, 'feed', 'market feed fresh again');
  }

  strategyError(strategy: string, error: string, time = this.clock.now()): void {
    this.holds.set('strategyError', { state: this.options.onStrategyError, reason: `strategy ${strategy} failed: ${error}` });
    this.update(time);
  }

  /** Sticky until the operator sets a state; a second breach while held changes nothing. */
  dailyLossBreached(reason: string, time = this.clock.now()): void {
    if (this.holds.has('dailyLoss')) return;
    this.holds.set('dailyLoss', { state: this.options.onDailyLoss, reason });
    this.update(time);
  }

  /** Completes both observables (call when the engine stops). */
  complete(): void {
    this.changesSubject.complete();
    this.cancelAllSubject.complete();
  }

  private refreshFeedHold(): void {
    if (this.staleFeeds.size === 0) {
      this.holds.delete('feed');
      return;
    }
    const what = this.staleFeeds.has(ALL_FEEDS) ? 'the whole market feed' : [...this.staleFeeds].sort().join(', ');
    this.holds.set('feed', { state: this.options.onFeedStale, reason: `market data stale: ${what}` });
  }

  /** Recomputes the state from the holds; `liftCause`/`liftReason` name a change that lifted every hold. */
  private update(time: number, liftCause: TradingStateCause = 'operator', liftReason = 'no hold left'): void {
    let state: TradingState = 'active';
    let cause = liftCause;
    let reason = liftReason;
    for (const candidate of PRECEDENCE) {
      const hold = this.holds.get(candidate);
      if (hold !== undefined && SEVERITY[hold.state] > SEVERITY[state]) {
        state = hold.state;
        cause = candidate;
        reason = hold.reason;
      }
    }
    const from = this.current;
    this.currentCause = cause;
    this.currentReason = reason;
    if (state === from) return;
    this.current = state;
    this.changesSubject.next({ from, to: state, cause, reason, time });
    if (state === 'halted') this.cancelAllSubject.next({ cause, reason, time });
  }
}
