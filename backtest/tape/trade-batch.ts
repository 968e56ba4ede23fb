/**
 * TradeBatch: trades released for replay as columns of typed arrays (no object per trade); `sym` indexes
 * the header's instruments. The columns may be views of the tape worker's shared ring (trade-ring.ts).
 */

export class TradeBatch {
  count = 0;
  sym: Int32Array;
  price: Float64Array;
  qty: Float64Array;
  buy: Uint8Array;
  time: Float64Array;
  line: Float64Array;

  constructor(capacity = 1024) {
    this.sym = new Int32Array(capacity);
    this.price = new Float64Array(capacity);
    this.qty = new Float64Array(capacity);
    this.buy = new Uint8Array(capacity);
    this.time = new Float64Array(capacity);
    this.line = new Float64Array(capacity);
  }

  get capacity(): number {
    return this.sym.length;
  }

  push(sym: number, price: number, qty: number, buy: number, time: number, line: number): void {
    if (this.count === this.sym.length) this.grow();
    const i = this.count++;
    this.sym[i] = sym;
    this.price[i] = price;
    this.qty[i] = qty;
    this.buy[i] = buy;
    this.time[i] = time;
    this.line[i] = line;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const n = Math.max(16, this.sym.length * 2);
    const grow = <T extends Int32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.sym = grow(this.sym, (k) => new Int32Array(k));
    this.price = grow(this.price, (k) => new Float64Array(k));
    this.qty = grow(this.qty, (k) => new Float64Array(k));
    this.buy = grow(this.buy, (k) => new Uint8Array(k));
    this.time = grow(this.time, (k) => new Float64Array(k));
    this.line = grow(this.line, (k) => new Float64Array(k));
  }
}
