/**
 * Volume traded per price over the last `windowMs` of one symbol's tape (both aggressor sides), kept
 * as a FIFO of trades (a growable ring of typed arrays) plus running sums per raw price (a typed array
 * indexed by price for the usual small integer prices, a Map for any other), so adding a trade and
 * reading a price are O(1) amortised, allocate nothing per trade, and memory is bounded by the trades of
 * one window. Feeds the "volume" queue-ahead model.
 */

/** Prices below this (non-negative integers) are summed in a typed array; others in a Map. */
const DENSE_LIMIT = 1 << 16;

export class VolumeWindow {
  private times = new Float64Array(1024);
  private prices = new Float64Array(1024);
  private qtys = new Float64Array(1024);
  /** Ring positions (monotonic; index = position & mask). */
  private head = 0;
  private tail = 0;
  private mask = 1023;
  private dense = new Float64Array(0);
  private readonly sparse = new Map<number, number>();

  constructor(private readonly windowMs: number) {}

  add(price: number, qty: number, time: number): void {
    this.evict(time);
    if (this.tail - this.head > this.mask) this.grow();
    const at = this.tail++ & this.mask;
    this.times[at] = time;
    this.prices[at] = price;
    this.qtys[at] = qty;
    if (isDense(price)) {
      if (price >= this.dense.length) this.growDense(price);
      this.dense[price] = (this.dense[price] as number) + qty;
    } else {
      this.sparse.set(price, (this.sparse.get(price) ?? 0) + qty);
    }
  }

  /** Volume at `price` traded in (now - windowMs, now]. */
  volumeAt(price: number, now: number): number {
    this.evict(now);
    if (isDense(price)) return price < this.dense.length ? (this.dense[price] as number) : 0;
    return this.sparse.get(price) ?? 0;
  }

  private evict(now: number): void {
    const oldest = now - this.windowMs;
    while (this.head < this.tail) {
      const at = this.head & this.mask;
      if ((this.times[at] as number) > oldest) return;
      const price = this.prices[at] as number;
      const qty = this.qtys[at] as number;
      if (isDense(price)) {
        // as the Map: a sum that reaches zero (or below, with fractions) starts again from zero
        const left = (this.dense[price] as number) - qty;
        this.dense[price] = left <= 0 ? 0 : left;
      } else {
        const left = (this.sparse.get(price) ?? 0) - qty;
        if (left <= 0) this.sparse.delete(price);
        else this.sparse.set(price, left);
      }
      this.head++;
    }
  }

  private grow(): void {
    const size = (this.mask + 1) * 2;
    const move = (from: Float64Array) => {
      const to = new Float64Array(size);
      for (let p = this.head; p < this.tail; p++) to[p & (size - 1)] = from[p & this.mask] as number;
      return to;
    };
    this.times = move(this.times);
    this.prices = move(this.prices);
    this.qtys = move(this.qtys);
    this.mask = size - 1;
  }

  private growDense(price: number): void {
    const next = new Float64Array(Math.min(DENSE_LIMIT, Math.max(price + 1, this.dense.length * 2, 128)));
    next.set(this.dense);
    this.dense = next;
  }
}

function isDense(price: number): boolean {
  return price >= 0 && price < DENSE_LIMIT && Math.floor(price) === price;
}
