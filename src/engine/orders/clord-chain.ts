/**
 * The client order ids of one order, oldest first, as a window: the first id (the submission's) is kept for
 * good, later ones only while they are recent. A quote replaced all day would otherwise keep every id it ever
 * had (and the index an alias for each): memory and lookups growing with the number of replaces. An id's
 * *version* is its position in the whole history (0 for the first), so versions keep their meaning when old
 * ids leave; ids newer than the confirmed version (pending replaces) never leave. An id that left is unknown
 * again: evidence naming it would count as a newer id, which needs an execution older than 64 replaces that
 * was never delivered before (the stream is ordered, and replays are dropped by execution id first).
 */

/** Ids kept besides the first: between WINDOW and 2 x WINDOW of the most recent ones. */
export const CHAIN_WINDOW = 64;

export class ClordChain {
  readonly first: string;
  /** Ids from version `offset` on. */
  private recent: string[];
  private offset = 0;

  constructor(first: string) {
    this.first = first;
    this.recent = [first];
  }

  /** Number of ids the order has had (versions 0 .. length - 1). */
  get length(): number {
    return this.offset + this.recent.length;
  }

  /** The id of `version`; undefined when it left the window. */
  at(version: number): string | undefined {
    if (version === 0) return this.first;
    const i = version - this.offset;
    return i >= 0 ? this.recent[i] : undefined;
  }

  /** Version of `clordId`, or -1 when unknown (or long gone). Searched from the newest end: recent ids are asked about. */
  versionOf(clordId: string): number {
    const i = this.recent.lastIndexOf(clordId);
    if (i >= 0) return this.offset + i;
    return clordId === this.first ? 0 : -1;
  }

  has(clordId: string): boolean {
    return this.versionOf(clordId) >= 0;
  }

  /**
   * Appends the newest id; returns the ids that left the window (at most versions below `confirmed`), whose
   * aliases the index drops.
   */
  push(clordId: string, confirmed: number): readonly string[] {
    this.recent.push(clordId);
    if (this.recent.length <= 2 * CHAIN_WINDOW) return [];
    const drop = Math.min(CHAIN_WINDOW, confirmed - this.offset);
    if (drop <= 0) return [];
    const gone = this.recent.splice(0, drop);
    this.offset += drop;
    return gone.filter((id) => id !== this.first);
  }

  /** Removes an unconfirmed id (a replace the exchange never confirmed). */
  removeAt(version: number): void {
    const i = version - this.offset;
    if (version > 0 && i >= 0 && i < this.recent.length) this.recent.splice(i, 1);
  }

  /** Ids kept, oldest first (the first, then the recent ones). */
  kept(): string[] {
    return this.offset === 0 ? [...this.recent] : [this.first, ...this.recent];
  }

  /** Ids kept up to `count` versions, oldest first. */
  upTo(count: number): string[] {
    const out: string[] = this.offset > 0 && count > 0 ? [this.first] : [];
    for (let i = 0; i < this.recent.length && this.offset + i < count; i++) out.push(this.recent[i] as string);
    return out;
  }
}
