/**
 * Busted trades supersede in a single streaming pass: every trade waits in a window of the last N
 * records before it is released to replay. A later record with the same trade id replaces the waiting
 * one: a BUSTED or REJECTED record removes it (the trade never happened), a standing record takes its
 * place (a plain duplicate collapses to one). A bust that arrives more than N records after its trade is
 * too late to undo what replay already did; it is counted as `lateBusts`. Memory is bounded by N
 * whatever the length of the tape, and the window is a set of typed arrays keyed by a 53-bit hash of the
 * trade id, so waiting trades are not heap objects the garbage collector has to promote.
 */
import { TradeBatch } from './trade-batch.ts';
import type { TradeFields } from './trade-scan.ts';

export interface SupersedeStats {
  /** Trades removed by a later busted/rejected record inside the window. */
  busted: number;
  /** Busted/rejected records with no earlier record in the window (already released, or never seen). */
  lateBusts: number;
  /** Repeated standing records of a trade still in the window (the later one replaced it). */
  duplicates: number;
}

/**
 * Open-addressing hash table (linear probing, backward-shift deletion) from a trade key to its window
 * slot, in typed arrays: no allocation per trade (a Map keyed by 53-bit numbers boxes every key).
 */
class KeyIndex {
  readonly keys: Float64Array;
  readonly values: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 4) size *= 2;
    this.keys = new Float64Array(size);
    this.values = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  get(key: number): number | undefined {
    for (let i = this.home(key); ; i = (i + 1) & this.mask) {
      const v = this.values[i] as number;
      if (v < 0) return undefined;
      if (this.keys[i] === key) return v;
    }
  }

  set(key: number, value: number): void {
    let i = this.home(key);
    while ((this.values[i] as number) >= 0 && this.keys[i] !== key) i = (i + 1) & this.mask;
    this.keys[i] = key;
    this.values[i] = value;
  }

  /** Removes `key` when it maps to `value`. */
  deleteIf(key: number, value: number): void {
    let i = this.home(key);
    for (;;) {
      const v = this.values[i] as number;
      if (v < 0) return;
      if (this.keys[i] === key) break;
      i = (i + 1) & this.mask;
    }
    if (this.values[i] !== value) return;
    // backward-shift: move later entries of the probe run into the hole
    let hole = i;
    for (let j = (i + 1) & this.mask; (this.values[j] as number) >= 0; j = (j + 1) & this.mask) {
      const home = this.home(this.keys[j] as number);
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (between) continue;
      this.keys[hole] = this.keys[j] as number;
      this.values[hole] = this.values[j] as number;
      hole = j;
    }
    this.values[hole] = -1;
  }

  private home(key: number): number {
    return (key ^ (key / 4294967296)) & this.mask;
  }
}

/** A window's whole state, to carry on in another thread (`state()`, `SupersedeWindow.restore`). */
export interface SupersedeState {
  readonly capacity: number;
  readonly head: number;
  readonly size: number;
  readonly stats: SupersedeStats;
  readonly keys: Float64Array;
  readonly removed: Uint8Array;
  readonly sym: Int32Array;
  readonly price: Float64Array;
  readonly qty: Float64Array;
  readonly buy: Uint8Array;
  readonly time: Float64Array;
  readonly line: Float64Array;
  readonly indexKeys: Float64Array;
  readonly indexValues: Int32Array;
}

export class SupersedeWindow {
  private readonly keys: Float64Array;
  private readonly removed: Uint8Array;
  private readonly slots: TradeBatch;
  private readonly index: KeyIndex;
  private head = 0;
  private size = 0;
  readonly stats: SupersedeStats = { busted: 0, lateBusts: 0, duplicates: 0 };

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`supersede window must be a positive integer, got ${capacity}`);
    this.keys = new Float64Array(capacity);
    this.removed = new Uint8Array(capacity);
    this.slots = new TradeBatch(capacity);
    this.index = new KeyIndex(capacity);
    this.slots.count = capacity;
  }

  /** The window's state (its own arrays: the window must not be used afterwards). */
  state(): SupersedeState {
    const s = this.slots;
    return {
      capacity: this.capacity,
      head: this.head,
      size: this.size,
      stats: { ...this.stats },
      keys: this.keys,
      removed: this.removed,
      sym: s.sym,
      price: s.price,
      qty: s.qty,
      buy: s.buy,
      time: s.time,
      line: s.line,
      indexKeys: this.index.keys,
      indexValues: this.index.values,
    };
  }

  /** A window carrying on from `state`. */
  static restore(state: SupersedeState): SupersedeWindow {
    const w = new SupersedeWindow(state.capacity);
    const same = <T extends Float64Array | Int32Array | Uint8Array>(into: T, from: T) => {
      if (from.length !== into.length)
        throw new RangeError(`a supersede window of ${state.capacity} records cannot restore ${from.length}`);
      into.set(from);
    };
    same(w.keys, state.keys);
    same(w.removed, state.removed);
    same(w.slots.sym, state.sym);
    same(w.slots.price, state.price);
    same(w.slots.qty, state.qty);
    same(w.slots.buy, state.buy);
    same(w.slots.time, state.time);
    same(w.slots.line, state.line);
    same(w.index.keys, state.indexKeys);
    same(w.index.values, state.indexValues);
    w.head = state.head;
    w.size = state.size;
    Object.assign(w.stats, state.stats);
    return w;
  }

  /** Adds a record (and its line number); pushes onto `out` what falls out of the window. */
  add(f: TradeFields, line: number, out: TradeBatch): void {
    const waiting = this.index.get(f.key);
    if (waiting !== undefined) {
      if (f.stands) {
        this.stats.duplicates++;
        this.write(waiting, f, line);
      } else {
        this.stats.busted++;
        this.removed[waiting] = 1;
      }
      return;
    }
    if (!f.stands) {
      this.stats.lateBusts++;
      return;
    }
    if (this.size === this.capacity) this.releaseOldest(out);
    const slot = (this.head + this.size) % this.capacity;
    this.write(slot, f, line);
    this.keys[slot] = f.key;
    this.index.set(f.key, slot);
    this.size++;
  }

  /** Releases everything still waiting (end of the tape). */
  flush(out: TradeBatch): void {
    while (this.size > 0) this.releaseOldest(out);
  }

  private write(slot: number, f: TradeFields, line: number): void {
    const s = this.slots;
    s.sym[slot] = f.sym;
    s.price[slot] = f.price;
    s.qty[slot] = f.qty;
    s.buy[slot] = f.buy ? 1 : 0;
    s.time[slot] = f.time;
    s.line[slot] = line;
    this.removed[slot] = 0;
  }

  private releaseOldest(out: TradeBatch): void {
    const slot = this.head;
    this.head = (this.head + 1) % this.capacity;
    this.size--;
    const key = this.keys[slot] as number;
    this.index.deleteIf(key, slot);
    if (this.removed[slot] === 1) return;
    const s = this.slots;
    out.push(
      s.sym[slot] as number,
      s.price[slot] as number,
      s.qty[slot] as number,
      s.buy[slot] as number,
      s.time[slot] as number,
      s.line[slot] as number,
    );
  }
}
