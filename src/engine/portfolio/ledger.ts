/**
 * The Portfolio's state: per account its cash, starting cash, reconciliation adjustments and positions by
 * symbol (immutable PositionState values, replaced on each change), plus the marks by symbol. A plain
 * store: the accounting rules live in position.ts, the orchestration in portfolio.ts.
 */
import { type Decimal, ZERO } from '../../domain/decimal.ts';
import { FLAT, type PositionState } from './position.ts';

export interface AccountState {
  readonly account: string;
  startingCash: Decimal;
  cash: Decimal;
  adjustments: Decimal;
  /**
   * False until the account's cash is known: given as starting cash, or taken from the exchange at the first
   * reconciliation (which then sets the starting point instead of reporting a difference).
   */
  cashKnown: boolean;
  readonly positions: Map<string, PositionState>;
}

export class Ledger {
  private readonly accounts = new Map<string, AccountState>();
  private readonly marks = new Map<string, Decimal>();

  constructor(startingCash: Readonly<Record<string, Decimal>> = {}) {
    for (const [account, cash] of Object.entries(startingCash)) this.account(account, cash).cashKnown = true;
  }

  /** The account's state, created (with `startingCash`, default 0) on first use. */
  account(account: string, startingCash: Decimal = ZERO): AccountState {
    let state = this.accounts.get(account);
    if (state === undefined) {
      state = { account, startingCash, cash: startingCash, adjustments: ZERO, cashKnown: false, positions: new Map() };
      this.accounts.set(account, state);
    }
    return state;
  }

  findAccount(account: string): AccountState | undefined {
    return this.accounts.get(account);
  }

  /** The accounts, without copying them into an array. */
  accountStates(): IterableIterator<AccountState> {
    return this.accounts.values();
  }

  allAccounts(): AccountState[] {
    return [...this.accounts.values()];
  }

  position(account: string, symbol: string): PositionState {
    return this.accounts.get(account)?.positions.get(symbol) ?? FLAT;
  }

  setPosition(account: string, symbol: string, position: PositionState): void {
    this.account(account).positions.set(symbol, position);
  }

  /** Accounts holding a position record in `symbol` (flat ones included). */
  holders(symbol: string): AccountState[] {
    return this.allAccounts().filter((state) => state.positions.has(symbol));
  }

  setMark(symbol: string, price: Decimal): void {
    this.marks.set(symbol, price);
  }

  mark(symbol: string): Decimal | undefined {
    return this.marks.get(symbol);
  }
}
