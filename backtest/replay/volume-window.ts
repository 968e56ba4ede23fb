/**
 * Volume traded per price over the last `windowMs` of one symbol's tape (both aggressor sides), kept
 * as a FIFO of trades plus running sums per raw price, so adding a trade and reading a price are O(1)
 * amortised and memory is bounded by the trades of one window. Feeds the "volume" queue-ahead model.
 */

export class VolumeWindow {
  private times: number[] = [];
  private prices: number[] = [];
  private qtys: number[] = [];
  private head = 0;
  private readonly sums = new Map<number, number>();

  constructor(private readonly windowMs: number) {}

  add(price: number, qty: number, time: number): void {
    this.evict(time);
    this.times.push(time);
    this.prices.push(price);
    this.qtys.push(qty);
    this.sums.set(price, (this.sums.get(price) ?? 0) + qty);
  }

  /** Volume at `price` traded in (now - windowMs, now]. */
  volumeAt(price: number, now: number): number {
    this.evict(now);
    return this.sums.get(price) ?? 0;
  }

  private evict(now: number): void {
    const oldest = now - this.windowMs;
    const times = this.times;
    while (this.head < times.length && (times[this.head] as number) <= oldest) {
      const price = this.prices[this.head] as number;
      const left = (this.sums.get(price) ?? 0) - (this.qtys[this.head] as number);
      if (left <= 0) this.sums.delete(price);
      else this.sums.set(price, left);
      this.head++;
    }
    if (this.head > 4096 && this.head * 2 > times.length) {
      this.times = times.slice(this.head);
      this.prices = this.prices.slice(this.head);
      this.qtys = this.qtys.slice(this.head);
      this.head = 0;
    }
  }
}
