/**
 * A bounded set of recently seen keys (least recently seen evicted first), for deduplicating stream messages
 * by id across reconnects without growing forever. O(1) amortized per operation: a Map from key to the stamp
 * of its last sighting, and a queue of (key, stamp) in sighting order; eviction pops the queue's front and
 * drops the key only when that entry is its latest sighting. (Evicting through the Map's own insertion order,
 * `keys().next()` after deletes, costs time proportional to the deleted entries V8 keeps at the front until
 * the next rehash: up to ~100 us per call on a full set of 100 000.)
 * The queue exists only once the set has first been over capacity: until then nothing is evicted, so
 * sightings only stamp the Map, and the queue is built then from the stamps (the live keys in sighting
 * order). A set that never fills (a backtest's executions, a short session's fills) never pays for it.
 * Shared by the transports (stream dedupe) and the engine (order and fill dedupe).
 */
import { TradebotError } from '../errors.ts';

export class LruSet {
  private readonly keys = new Map<string, number>();
  private queueKeys: string[] = [];
  private queueStamps: number[] = [];
  private head = 0;
  private stamp = 0;
  /** False until the set first goes over capacity: the queue is empty and unused until then. */
  private queued = false;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new TradebotError('TRANSPORT_INVALID_OPTIONS', `LruSet capacity must be an integer >= 1 (got ${capacity})`, { kind: 'config' });
    }
  }

  get size(): number {
    return this.keys.size;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Records `key`; returns true when it was already present (it then becomes the most recent). */
  checkAndAdd(key: string): boolean {
    const stamp = ++this.stamp;
    // one hash lookup instead of has + set: the key was present when setting it did not grow the map
    const before = this.keys.size;
    this.keys.set(key, stamp);
    const seen = this.keys.size === before;
    if (!this.queued) {
      if (this.keys.size <= this.capacity) return seen;
      this.queued = true;
      this.requeueLive();
    } else {
      this.queueKeys.push(key);
      this.queueStamps.push(stamp);
    }
    while (this.keys.size > this.capacity && this.head < this.queueKeys.length) {
      const oldest = this.queueKeys[this.head] as string;
      if (this.keys.get(oldest) === this.queueStamps[this.head]) this.keys.delete(oldest);
      this.head += 1;
    }
    this.compact();
    return seen;
  }

  /** Drops consumed queue entries, and stale ones (keys seen again since) once they outnumber the live keys. */
  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.queueKeys.length) {
      this.queueKeys = this.queueKeys.slice(this.head);
      this.queueStamps = this.queueStamps.slice(this.head);
      this.head = 0;
    }
    if (this.queueKeys.length - this.head > 2 * this.capacity + 1024) this.requeueLive();
  }

  /** The queue becomes exactly the live keys, oldest sighting first. */
  private requeueLive(): void {
    const live = [...this.keys].sort((a, b) => a[1] - b[1]);
    this.queueKeys = live.map(([k]) => k);
    this.queueStamps = live.map(([, s]) => s);
    this.head = 0;
  }
}
