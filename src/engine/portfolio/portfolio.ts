/**
 * The Portfolio: per account and symbol, the position (signed), its average price, realized and
 * unrealized PnL at the latest mark, commissions, turnover and fill count; per account, cash. Inputs are
 * fills (from the OrderTracker or a backtest), marks (mid or last, whichever the caller supplies),
 * settlements of expired contracts and reconciliations with the exchange. Every change is emitted on
 * `changes$`; `snapshot()` gives the plain-object view for reports. All amounts are Decimal.
 *
 * Accounting (position.ts): average cost; cash moves by -signedQty x price - fee on each fill (the
 * simulator's ledger does the same, shorts included). For every account, at any mark:
 *   cash + sum(qty x mark) = startingCash + realized + unrealized - fees + adjustments
 * where unrealized = qty x mark - cost (0 for a symbol without a mark) and adjustments come only from
 * `reconcile`. A settlement closes positions at the settlement price without fee and is not turnover.
 * Fill ids are remembered for the most recent `fillIdMemory` fills (default 100 000): a duplicate is ignored,
 * and a fill can be reversed, within that window.
 * A reversed (busted) fill books the opposite trade at the same price and refunds its fee: position and
 * cash are restored exactly; the split between realized and unrealized PnL may differ from never having
 * had the fill when other fills came in between (average cost is path dependent).
 */
import { Subject, type Observable } from 'rxjs';
import { LruSet } from '../../util/lru-set.ts';
import { Decimal, ZERO } from '../../domain/decimal.ts';
import type { Balance, Position } from '../../domain/index.ts';
import type { EpochMs } from '../../domain/time.ts';
import type { Clock } from '../clock.ts';
import { PortfolioErrorCode, portfolioError } from './errors.ts';
import { NO_FEES, feeOf } from './fees.ts';
import { Ledger } from './ledger.ts';
import { marketValue, RELEASE_DECIMALS, settle as settlePosition, trade, withFields, type PositionState } from './position.ts';
import { planReconcile } from './reconcile.ts';
import { accountSnapshot, portfolioSnapshot, positionSnapshot, positionSnapshotAt, valuationOf, type Valuation } from './snapshot.ts';
import type {
  AccountSnapshot,
  FeeRates,
  PortfolioChange,
  PortfolioChangeCause,
  PortfolioFill,
  PortfolioOptions,
  PortfolioSnapshot,
  PositionSnapshot,
  ReconcileResult,
} from './types.ts';

/** Fill ids remembered for at-least-once safety (far more than any redelivery window). */
export const DEFAULT_FILL_ID_MEMORY = 100_000;

function validRates(rates: FeeRates): FeeRates {
  if (rates.takerBps.isNegative() || rates.makerBps.isNegative() || !rates.takerBps.isFinite() || !rates.makerBps.isFinite()) {
    throw portfolioError(
      PortfolioErrorCode.INVALID_OPTIONS,
      `fees: expected non-negative basis points, got taker ${rates.takerBps.toString()} maker ${rates.makerBps.toString()}`,
      {},
    );
  }
  return rates;
}

function checkFill(fill: PortfolioFill): void {
  const sideOk = fill.side === 'BUY' || fill.side === 'SELL';
  if (!sideOk || !fill.qty.isFinite() || fill.qty.lte(0) || !fill.price.isFinite() || fill.price.isNegative()) {
    throw portfolioError(
      PortfolioErrorCode.INVALID_FILL,
      `fill ${fill.fillId ?? ''} ${fill.symbol}: expected side BUY or SELL, qty > 0 and price >= 0, ` +
        `got ${String(fill.side)} ${fill.qty.toString()} @ ${fill.price.toString()}`,
      { fillId: fill.fillId, symbol: fill.symbol },
    );
  }
}

export class Portfolio {
  private readonly clock: Clock;
  private readonly rates: FeeRates;
  private readonly feeSource: 'rates' | 'reported';
  private readonly currency: string;
  private readonly ledger: Ledger;
  private readonly moneyDigits: Readonly<Record<string, number>>;
  /** Fill ids booked and reversed, the most recent ones (a long run must not grow with its fills). */
  private readonly booked: LruSet;
  private readonly reversed: LruSet;
  private readonly changes = new Subject<PortfolioChange>();
  /** netPnl's share of each position, with the inputs it came from (see netPnl). */
  private readonly pnlMemo = {
    accounts: [] as string[],
    symbols: [] as string[],
    states: [] as PositionState[],
    marks: [] as (Decimal | undefined)[],
    /** realized - fees - cost of the state. */
    bases: [] as Decimal[],
    /** bases + market value at the mark (undefined: to work out). */
    shares: [] as (Decimal | undefined)[],
  };

  readonly changes$: Observable<PortfolioChange> = this.changes.asObservable();
  /** Symbols of positions taken over at reconciliation that have no mark yet: their first one values what was held before. */
  private readonly inheritedUnmarked = new Set<string>();
  /** What positions taken over from the exchange were worth at their first mark (PnL from before the run). */
  private preRun: Decimal = ZERO;

  constructor(options: PortfolioOptions) {
    this.clock = options.clock;
    this.rates = validRates(options.fees ?? NO_FEES);
    this.feeSource = options.feeSource ?? 'rates';
    this.currency = options.currency ?? 'USD';
    this.ledger = new Ledger(options.startingCash);
    this.moneyDigits = options.moneyDigits ?? {};
    this.booked = new LruSet(options.fillIdMemory ?? DEFAULT_FILL_ID_MEMORY);
    this.reversed = new LruSet(options.fillIdMemory ?? DEFAULT_FILL_ID_MEMORY);
  }

  /** Books a fill; false (and no change) when its fillId was already booked. */
  applyFill(fill: PortfolioFill): boolean {
    checkFill(fill);
    if (fill.fillId !== undefined && this.booked.checkAndAdd(fill.fillId)) return false;
    this.book(fill, 1, 'fill');
    return true;
  }

  /** Reverses a booked fill (a busted trade); false when it was never booked or already reversed. */
  reverseFill(fill: PortfolioFill): boolean {
    checkFill(fill);
    if (fill.fillId !== undefined) {
      if (!this.booked.has(fill.fillId) || this.reversed.has(fill.fillId)) return false;
      this.reversed.checkAndAdd(fill.fillId);
    }
    this.book(fill, -1, 'reversal');
    return true;
  }

  /** Sets the price positions in `symbol` are valued at (mid or last, the caller's choice). */
  mark(symbol: string, price: Decimal): void {
    if (!price.isFinite() || price.isNegative()) {
      throw portfolioError(PortfolioErrorCode.INVALID_MARK, `mark ${symbol}: expected a price >= 0, got ${price.toString()}`, { symbol });
    }
    // called on every book update: no allocation unless a held position is revalued
    const previous = this.ledger.mark(symbol);
    if (previous !== undefined && previous.eq(price)) return;
    const before = this.inheritedUnmarked.delete(symbol) ? this.netPnl() : undefined;
    this.ledger.setMark(symbol, price);
    if (before !== undefined) this.preRun = this.preRun.plus(this.netPnl().minus(before));
    for (const state of this.ledger.accountStates()) {
      const position = state.positions.get(symbol);
      if (position !== undefined && !position.qty.isZero()) this.emit('mark', this.clock.now(), state.account, symbol);
    }
  }

  /** Settles an expired contract: every position in `symbol` closes at `price` (0 or 1), realized, no fee. */
  settle(symbol: string, price: Decimal | 0 | 1): void {
    const px = typeof price === 'number' ? new Decimal(price) : price;
    if (!px.isFinite() || px.isNegative() || px.gt(1)) {
      throw portfolioError(
        PortfolioErrorCode.INVALID_SETTLEMENT_PRICE,
        `settle ${symbol}: expected a price in [0, 1], got ${px.toString()}`,
        { symbol },
      );
    }
    this.ledger.setMark(symbol, px);
    const time = this.clock.now();
    for (const state of this.ledger.holders(symbol)) {
      const effect = settlePosition(this.ledger.position(state.account, symbol), px);
      state.cash = state.cash.plus(effect.cashDelta);
      this.ledger.setPosition(state.account, symbol, effect.position);
      this.emit('settle', time, state.account, symbol);
    }
  }

  /** Sets positions and cash to the exchange's values (it is trusted; see reconcile.ts); returns the differences. */
  reconcile(positions: readonly Position[], balances: readonly Balance[]): ReconcileResult {
    for (const p of positions)
      if (!p.netPosition.isZero() && this.ledger.mark(p.symbol) === undefined) this.inheritedUnmarked.add(p.symbol);
    const plan = planReconcile(this.ledger, positions, balances, this.currency);
    const time = this.clock.now();
    const touched = new Set(plan.result.cash.map((c) => c.account));
    for (const { account, to, adopt } of plan.cash) {
      const state = this.ledger.account(account);
      if (adopt && !to.eq(state.cash)) touched.add(account);
      if (adopt) state.startingCash = state.startingCash.plus(to.minus(state.cash));
      else state.adjustments = state.adjustments.plus(to.minus(state.cash));
      state.cash = to;
      state.cashKnown = true;
    }
    for (const target of plan.positions) {
      const state = this.ledger.account(target.account);
      const local = this.ledger.position(target.account, target.symbol);
      state.adjustments = state.adjustments.plus(target.cost.minus(local.cost));
      this.ledger.setPosition(target.account, target.symbol, withFields(local, { qty: target.qty, cost: target.cost }));
    }
    for (const diff of plan.result.positions) {
      touched.delete(diff.account);
      this.emit('reconcile', time, diff.account, diff.symbol);
    }
    for (const account of touched) this.emit('reconcile', time, account, undefined);
    return plan.result;
  }

  /** Net quantity of every position record (flat ones included), valued at nothing: cheap enough for each risk check. */
  quantities(): { readonly account: string; readonly symbol: string; readonly qty: Decimal }[] {
    const out: { account: string; symbol: string; qty: Decimal }[] = [];
    for (const state of this.ledger.allAccounts())
      for (const [symbol, position] of state.positions) out.push({ account: state.account, symbol, qty: position.qty });
    return out;
  }

  /** Engine time (the portfolio's clock). */
  now(): number {
    return this.clock.now();
  }

  /**
   * PnL from before the run inside netPnl(): what positions taken over from the exchange at reconciliation
   * were worth at their first mark (value less the exchange's cost basis). The day's PnL leaves it out.
   */
  preRunPnl(): Decimal {
    return this.preRun;
  }

  /** The last mark of `symbol` (undefined before its first). */
  markOf(symbol: string): Decimal | undefined {
    return this.ledger.mark(symbol);
  }

  /** Net quantity of one position (0 when there is none), without building a snapshot. */
  quantity(account: string, symbol: string): Decimal {
    return this.ledger.position(account, symbol).qty;
  }

  /**
   * Realized + unrealized PnL minus fees over every account, as the snapshot's totals.netPnl but without
   * building it. Risk asks after every mark of a held position, so each position's share is kept with the
   * inputs it came from (account, symbol, position state and mark, all immutable) and worked out again only
   * when they changed: `realized - fees - cost` when its state changed, plus `qty x mark` (the cost when
   * unmarked) when its state or mark did. The shares are then summed: exact decimal arithmetic, so the
   * same value as the snapshot's sum in its own order.
   */
  netPnl(): Decimal {
    const memo = this.pnlMemo;
    let total = ZERO;
    let i = 0;
    for (const state of this.ledger.accountStates()) {
      for (const [symbol, position] of state.positions) {
        const mark = this.ledger.mark(symbol);
        const known = i < memo.shares.length && memo.symbols[i] === symbol && memo.accounts[i] === state.account;
        if (!known || memo.states[i] !== position) {
          memo.accounts[i] = state.account;
          memo.symbols[i] = symbol;
          memo.states[i] = position;
          memo.marks[i] = undefined;
          memo.bases[i] = position.realized.minus(position.fees).minus(position.cost);
          memo.shares[i] = undefined;
        }
        let share = memo.shares[i];
        if (share === undefined || memo.marks[i] !== mark) {
          share = (memo.bases[i] as Decimal).plus(marketValue(position, mark));
          memo.marks[i] = mark;
          memo.shares[i] = share;
        }
        total = i === 0 ? share : total.plus(share);
        i++;
      }
    }
    if (memo.shares.length !== i) {
      memo.accounts.length = i;
      memo.symbols.length = i;
      memo.states.length = i;
      memo.marks.length = i;
      memo.bases.length = i;
      memo.shares.length = i;
    }
    return total;
  }

  position(account: string, symbol: string): PositionSnapshot {
    return positionSnapshot(this.ledger, account, symbol, this.ledger.position(account, symbol));
  }

  account(account: string): AccountSnapshot | undefined {
    const state = this.ledger.findAccount(account);
    return state === undefined ? undefined : accountSnapshot(this.ledger, state);
  }

  snapshot(): PortfolioSnapshot {
    return portfolioSnapshot(this.ledger, this.clock.now(), this.currency);
  }

  /** snapshot().totals.equity, computed the same way, and every position's quantity, without the snapshot. */
  valuation(): Valuation {
    return valuationOf(this.ledger);
  }

  close(): void {
    this.changes.complete();
  }

  /** Books `fill` (direction 1) or its reversal (direction -1). */
  private book(fill: PortfolioFill, direction: 1 | -1, cause: PortfolioChangeCause): void {
    const state = this.ledger.account(fill.account);
    const position = this.ledger.position(fill.account, fill.symbol);
    const signed = (fill.side === 'BUY' ? fill.qty : fill.qty.neg()).times(direction);
    const fee = feeOf(fill, this.rates, this.feeSource).times(direction);
    const effect = trade(position, signed, fill.price, this.moneyDigits[fill.symbol] ?? RELEASE_DECIMALS);
    this.ledger.setPosition(
      fill.account,
      fill.symbol,
      withFields(effect.position, {
        fees: effect.position.fees.plus(fee),
        turnover: effect.position.turnover.plus(fill.qty.times(fill.price).times(direction)),
        fillCount: effect.position.fillCount + direction,
      }),
    );
    state.cash = state.cash.plus(effect.cashDelta).minus(fee);
    this.emit(cause, fill.time, fill.account, fill.symbol);
  }

  private emit(cause: PortfolioChangeCause, time: EpochMs, account: string, symbol: string | undefined): void {
    const state = this.ledger.account(account);
    const position = symbol === undefined ? undefined : this.ledger.position(account, symbol);
    this.changes.next(
      Object.freeze(
        new Change(cause, time, account, state.cash, symbol, position, symbol === undefined ? undefined : this.ledger.mark(symbol)),
      ),
    );
  }
}

/**
 * A change event. Its position snapshot is built from the position state and mark of the change when first
 * read (both immutable, so it is the snapshot of that moment whenever it is read): a mark emits a change on
 * every book update while a position is held, and most subscribers only need to know that something changed.
 */
class Change implements PortfolioChange {
  readonly #symbol: string | undefined;
  readonly #state: PositionState | undefined;
  readonly #mark: Decimal | undefined;
  #position: PositionSnapshot | undefined = undefined;

  constructor(
    readonly cause: PortfolioChangeCause,
    readonly time: EpochMs,
    readonly account: string,
    readonly cash: Decimal,
    symbol: string | undefined,
    state: PositionState | undefined,
    mark: Decimal | undefined,
  ) {
    this.#symbol = symbol;
    this.#state = state;
    this.#mark = mark;
  }

  get position(): PositionSnapshot | undefined {
    if (this.#position === undefined && this.#symbol !== undefined && this.#state !== undefined) {
      this.#position = positionSnapshotAt(this.account, this.#symbol, this.#state, this.#mark);
    }
    return this.#position;
  }

  /** Plain form for logs and JSON, the position included. */
  toJSON(): object {
    return { cause: this.cause, time: this.time, account: this.account, cash: this.cash, position: this.position };
  }
}
