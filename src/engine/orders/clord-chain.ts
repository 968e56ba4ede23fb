/**
 * The client order ids of one order, oldest first, as a window: the first id (the submission's) is kept for
 * good, later ones only while they are recent. A quote replaced all day would otherwise keep every id it ever
 * had (and the index an alias for each): memory and lookups growing with the number of replaces. An id's
 * *version* is its position in the whole history (0 for the first), so versions keep their meaning when old
 * ids leave; ids newer than the confirmed version (pending replaces) never leave. An id that left is unknown
 * again: evidence naming it would count as a newer id, which needs an execution older than 64 replaces that
 * was never delivered before (the stream is ordered, and replays are dropped by execution id first).
 */

/**
 * Ids kept besides the first: the WINDOW most recent ones (and any newer than the confirmed version). Older
 * ones leave one or two per new id, never in a batch: dropping WINDOW aliases at once every WINDOW replaces
 * was the tick-to-order bench's p99 (one update in 64 took 3-4 times the median).
 */
export const CHAIN_WINDOW = 64;

const NONE: readonly string[] = [];

export class ClordChain {
  readonly first: string;
  /** Ids from version `offset` on, from index `head` (the entries before it have left the window). */
  private recent: string[];
  private head = 0;
  private offset = 0;

  constructor(first: string) {
    this.first = first;
    this.recent = [first];
  }

  /** Number of ids the order has had (versions 0 .. length - 1). */
  get length(): number {
    return this.offset + this.recent.length - this.head;
  }

  /** The id of `version`; undefined when it left the window. */
  at(version: number): string | undefined {
    if (version === 0) return this.first;
    const i = version - this.offset;
    return i >= 0 ? this.recent[this.head + i] : undefined;
  }

  /** Version of `clordId`, or -1 when unknown (or long gone). Searched from the newest end: recent ids are asked about. */
  versionOf(clordId: string): number {
    const i = this.recent.lastIndexOf(clordId);
    if (i >= this.head) return this.offset + i - this.head;
    return clordId === this.first ? 0 : -1;
  }

  has(clordId: string): boolean {
    return this.versionOf(clordId) >= 0;
  }

  /**
   * Appends the newest id; returns the ids that left the window (at most two, only versions below
   * `confirmed`), whose aliases the index drops. Two per push let the window catch up after a run of
   * unconfirmed replaces. Ids leave by moving `head` (a quote replaced all day pushes on every replace: taking
   * them off the array's front moved the whole window each time); the array is cut once a window has left.
   */
  push(clordId: string, confirmed: number): readonly string[] {
    this.recent.push(clordId);
    const drop = Math.min(2, this.recent.length - this.head - CHAIN_WINDOW, confirmed - this.offset);
    if (drop <= 0) return NONE;
    const from = this.head;
    this.head += drop;
    this.offset += drop;
    const gone = from === 0 && this.recent[0] === this.first ? this.recent.slice(1, this.head) : this.recent.slice(from, this.head);
    if (this.head >= CHAIN_WINDOW) {
      this.recent = this.recent.slice(this.head);
      this.head = 0;
    }
    return gone;
  }

  /** Removes an unconfirmed id (a replace the exchange never confirmed). */
  removeAt(version: number): void {
    const i = version - this.offset;
    if (version > 0 && i >= 0 && this.head + i < this.recent.length) this.recent.splice(this.head + i, 1);
  }

  /** Ids kept, oldest first (the first, then the recent ones). */
  kept(): string[] {
    return this.offset === 0 ? this.recent.slice(this.head) : [this.first, ...this.recent.slice(this.head)];
  }

  /** Ids kept up to `count` versions, oldest first. */
  upTo(count: number): string[] {
    const out: string[] = this.offset > 0 && count > 0 ? [this.first] : [];
    for (let i = this.head; i < this.recent.length && this.offset + i - this.head < count; i++) out.push(this.recent[i] as string);
    return out;
  }
}
