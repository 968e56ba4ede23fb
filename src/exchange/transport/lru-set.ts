/**
 * A bounded set of recently seen keys (least recently seen evicted first), for deduplicating stream messages
 * by id across reconnects without growing forever. Backed by a Map's insertion order: O(1) per operation.
 */
import { TransportError, TransportErrorCode } from './errors.ts';

export class LruSet {
  private readonly keys = new Map<string, true>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new TransportError(TransportErrorCode.InvalidOptions, `LruSet capacity must be an integer >= 1 (got ${capacity})`);
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
    const seen = this.keys.delete(key);
    this.keys.set(key, true);
    if (this.keys.size > this.capacity) {
      const oldest = this.keys.keys().next();
      if (oldest.done !== true) this.keys.delete(oldest.value);
    }
    return seen;
  }
}
