/**
 * Turnover: the traded notional, sum over fills of |qty x price| (money, Decimal), and its ratio to the
 * starting cash (how many times the capital was traded); with the fills' symbols, also per symbol (the
 * report's bySymbol), whose parts add up exactly to the total.
 */
import { ZERO, type Decimal } from '../../src/domain/decimal.ts';

export class TurnoverCounter {
  total: Decimal = ZERO;
  /** Per symbol (only fills given a symbol): turnover and fill count. */
  readonly bySymbol = new Map<string, { turnover: Decimal; fills: number }>();

  addFill(qty: Decimal, price: Decimal, symbol?: string): void {
    const notional = qty.times(price).abs();
    this.total = this.total.plus(notional);
    if (symbol === undefined) return;
    const entry = this.bySymbol.get(symbol);
    if (entry === undefined) this.bySymbol.set(symbol, { turnover: notional, fills: 1 });
    else {
      entry.turnover = entry.turnover.plus(notional);
      entry.fills++;
    }
  }

  ratio(startingCash: Decimal): Decimal | undefined {
    return startingCash.gt(0) ? this.total.div(startingCash) : undefined;
  }
}

export function turnover(fills: readonly { readonly qty: Decimal; readonly price: Decimal }[]): Decimal {
  const counter = new TurnoverCounter();
  for (const f of fills) counter.addFill(f.qty, f.price);
  return counter.total;
}
