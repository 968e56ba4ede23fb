/**
 * Turnover: the traded notional, sum over fills of |qty x price| (money, Decimal), and its ratio to the
 * starting cash (how many times the capital was traded).
 */
import { ZERO, type Decimal } from '../../src/domain/decimal.ts';

export class TurnoverCounter {
  total: Decimal = ZERO;

  addFill(qty: Decimal, price: Decimal): void {
    this.total = this.total.plus(qty.times(price).abs());
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
