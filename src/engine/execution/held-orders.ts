/**
 * Orders held back for self-match prevention (risk `selfMatch.action: cancelResting`). Risk approves the
 * cancels of the bot's own resting orders that an order would trade against, then the order itself; sending
 * both at once races (the order can reach the book before the cancel and trade against the bot), so the
 * adapter keeps the order here until every one of those resting orders is confirmed finished by the
 * exchange (CANCELED, or FILLED / EXPIRED meanwhile). When one of them is working again instead (its cancel
 * failed or was rejected), the held order is dropped, never sent.
 */

/** Where a resting order that a held order waits for stands. */
export type Blocker = 'finished' | 'cancelling' | 'working';

export interface Held<T> {
  /** The client order id the held item concerns (the new order's, or the replaced order's). */
  readonly clordId: string;
  /** Client order ids of the resting orders that must finish first. */
  readonly after: readonly string[];
  readonly item: T;
}

export interface Settled<T> {
  readonly released: readonly Held<T>[];
  /** Held items to drop, with the resting order that is working again. */
  readonly dropped: readonly { readonly held: Held<T>; readonly working: string }[];
}

export class HeldOrders<T> {
  private held: Held<T>[] = [];

  get size(): number {
    return this.held.length;
  }

  hold(entry: Held<T>): void {
    this.held.push(entry);
  }

  /** Removes and returns what is held for `clordId`. */
  take(clordId: string): Held<T> | undefined {
    const index = this.held.findIndex((h) => h.clordId === clordId);
    if (index < 0) return undefined;
    const [taken] = this.held.splice(index, 1);
    return taken;
  }

  takeAll(): Held<T>[] {
    const all = this.held;
    this.held = [];
    return all;
  }

  /** Removes and returns the items whose resting orders all finished, and those one of which is working again. */
  settle(stateOf: (clordId: string) => Blocker): Settled<T> {
    const released: Held<T>[] = [];
    const dropped: { held: Held<T>; working: string }[] = [];
    const kept: Held<T>[] = [];
    for (const held of this.held) {
      const states = held.after.map((clordId) => ({ clordId, state: stateOf(clordId) }));
      const working = states.find((s) => s.state === 'working');
      if (working !== undefined) dropped.push({ held, working: working.clordId });
      else if (states.every((s) => s.state === 'finished')) released.push(held);
      else kept.push(held);
    }
    this.held = kept;
    return { released, dropped };
  }
}
