/**
 * A Map and a Set for long-lived tables whose keys come and go all the time (requests in flight, queued
 * messages, the aliases of orders being replaced), that do not make the garbage collector keep what they
 * once held.
 *
 * Why: V8 keeps a Map's (and a Set's) entries in a hash table that it replaces by a new one every few inserts
 * and deletes (a rehash) and on `clear()`; the old table keeps a pointer to its successor and its former
 * entries. Once a Map has lived long enough to sit in the old generation, its tables do too, and every later
 * table is reached from a dead old one: each young-generation collection (scavenge) copies it, and everything
 * it ever held (requests, order views, Decimals), into the old generation, until the next full collection.
 * On the tick-to-order bench (2 replaces per book update) the tracker's per-symbol view cache, cleared on
 * every order change, and the queues and in-flight sets of the send path promoted ~1 MB per scavenge: 4-6 ms
 * scavenges every ~700 updates, which were the p999 and the max of the latency figures.
 *
 * The remedy: after enough deletes the entries move to a fresh Map (O(size), amortized O(1) per delete; the
 * fresh Map is young, and its successors die young with it), and `clear()` starts a fresh Map. The move
 * happens on `set` (`add`), never on `delete`, so deleting while iterating (which a Map allows) keeps working.
 * Iteration order is the Map's, insertion order, which a move preserves. Tables cleared wholesale (the
 * tracker's view cache, the portfolio port's net quantities, the decimal caches) use it for `clear()` alone.
 */

/** Deletes a Map may take before its entries move to a fresh one: this many beyond twice its size. */
const RENEW_SLACK = 64;

/** True when a table of `size` entries that took `deletes` deletes since its last move should move now. */
function renewDue(deletes: number, size: number): boolean {
  return deletes > 2 * size + RENEW_SLACK;
}

export class RenewingMap<K, V> implements Map<K, V> {
  private map: Map<K, V>;
  private deletes = 0;

  constructor(entries?: Iterable<readonly [K, V]>) {
    this.map = new Map(entries);
  }

  get size(): number {
    return this.map.size;
  }

  get [Symbol.toStringTag](): string {
    return 'RenewingMap';
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    if (renewDue(this.deletes, this.map.size)) {
      this.map = new Map(this.map);
      this.deletes = 0;
    }
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    const deleted = this.map.delete(key);
    if (deleted) this.deletes += 1;
    return deleted;
  }

  clear(): void {
    this.map = new Map();
    this.deletes = 0;
  }

  forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.map) callback.call(thisArg, value, key, this);
  }

  entries(): MapIterator<[K, V]> {
    return this.map.entries();
  }

  keys(): MapIterator<K> {
    return this.map.keys();
  }

  values(): MapIterator<V> {
    return this.map.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.map[Symbol.iterator]();
  }
}

/** The Set counterpart of RenewingMap (same reason, same rule). */
export class RenewingSet<T> implements Set<T> {
  private set: Set<T>;
  private deletes = 0;

  constructor(values?: Iterable<T>) {
    this.set = new Set(values);
  }

  get size(): number {
    return this.set.size;
  }

  get [Symbol.toStringTag](): string {
    return 'RenewingSet';
  }

  has(value: T): boolean {
    return this.set.has(value);
  }

  add(value: T): this {
    if (renewDue(this.deletes, this.set.size)) {
      this.set = new Set(this.set);
      this.deletes = 0;
    }
    this.set.add(value);
    return this;
  }

  delete(value: T): boolean {
    const deleted = this.set.delete(value);
    if (deleted) this.deletes += 1;
    return deleted;
  }

  clear(): void {
    this.set = new Set();
    this.deletes = 0;
  }

  forEach(callback: (value: T, same: T, set: Set<T>) => void, thisArg?: unknown): void {
    for (const value of this.set) callback.call(thisArg, value, value, this);
  }

  entries(): SetIterator<[T, T]> {
    return this.set.entries();
  }

  keys(): SetIterator<T> {
    return this.set.keys();
  }

  values(): SetIterator<T> {
    return this.set.values();
  }

  [Symbol.iterator](): SetIterator<T> {
    return this.set[Symbol.iterator]();
  }
}
