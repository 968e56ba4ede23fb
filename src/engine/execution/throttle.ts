/**
 * The message throttle of the execution adapter (`risk.maxMessagesPerSecond` with `risk.maxQueuedMessages` >
 * 0): requests the adapter would send beyond the budget wait here instead of being refused, as NautilusTrader's
 * risk engine throttles order submits. One queue of entries, each a request of one kind (cancel, replace, place,
 * cross) for one key (the order, or the cross). A newer entry of the same kind and key supersedes the queued one
 * (it takes the older one's place in line); the adapter removes entries a cancel makes pointless (`remove`).
 *
 * `take(now)` hands out what the budget allows, cancels first, then replaces, places and crosses, each kind
 * oldest first; entries that waited longer than `maxAgeMs` are handed back as expired instead (never cancels:
 * refusing a cancel would keep risk on the book). Every request handed out counts one message in a sliding
 * window of `windowMs` (the last second of engine time, (t - 1000, t]): in no window are more than
 * `maxPerSecond` sent, unless `take` is forced (the stop's cancels). `nextDrainAt` says when the budget frees
 * the next slot. Times are the engine clock's, so a backtest throttles like a live run. `offer` refuses an
 * entry (not a cancel) when `maxQueued` entries already wait: the only refusal besides the age.
 *
 * Requests leave in batches: while others wait, a take sends nothing until `batch` slots are free (a tenth of
 * the budget, 1 to 20: the adapter's list calls), so a full queue does not turn into one venue call per freed
 * slot; `nextDrainAt` is when that many are free.
 *
 * Without limits (`undefined`) the queue only orders: `take` hands out everything.
 *
 * Fair share (#25, several strategies): with `fairness`, entries belong to groups (the strategy whose order
 * it is); after the cancels, a take hands out the other entries round-robin over the groups (the group that
 * starts moves on each take), so a strategy with many queued requests cannot starve another of the shared
 * budget; a group may also have its own, smaller budget per window (its risk.maxMessagesPerSecond).
 */
import { RenewingMap } from '../../util/renewing-collections.ts';

export type ThrottleKind = 'cancel' | 'replace' | 'place' | 'cross';

export interface ThrottleLimits {
  /** Messages per window (the venue counts about 100 per second per firm). */
  readonly maxPerSecond: number;
  /** Entries that may wait at once (cancels are never refused). */
  readonly maxQueued: number;
  /** The longest an entry (not a cancel) may wait before it is refused. */
  readonly maxAgeMs: number;
}

export const THROTTLE_WINDOW_MS = 1000;

/** How entries are shared among groups (strategies): the group of an item, and a group's own budget. */
export interface ThrottleFairness<T> {
  groupOf(item: T): string;
  /** The group's own messages per window (undefined: only the shared budget). */
  limitOf(group: string): number | undefined;
}

/** Slots a drain waits for while requests queue: a tenth of the budget, at least 1, at most a list call's 20. */
export function drainBatch(maxPerSecond: number): number {
  return Math.max(1, Math.min(20, Math.ceil(maxPerSecond / 10)));
}

export interface ThrottleEntry<T> {
  readonly kind: ThrottleKind;
  readonly key: string;
  readonly item: T;
  /** When this entry (not the one it superseded) was queued. */
  readonly queuedAt: number;
  /** Its place in line (a superseding entry keeps the superseded one's). */
  readonly seq: number;
  /** True once a `take` left it waiting. */
  readonly waited: boolean;
}

export type OfferResult<T> =
  { readonly accepted: true; readonly superseded: ThrottleEntry<T> | undefined } | { readonly accepted: false; readonly reason: string };

export interface TakeResult<T> {
  /** To send now, cancels first. */
  readonly send: readonly ThrottleEntry<T>[];
  /** Waited longer than maxAgeMs: refused. */
  readonly expired: readonly ThrottleEntry<T>[];
  /** Left waiting by this take for the first time (the strategy hears they are pending). */
  readonly nowWaiting: readonly ThrottleEntry<T>[];
}

interface MutableEntry<T> {
  kind: ThrottleKind;
  key: string;
  item: T;
  queuedAt: number;
  seq: number;
  waited: boolean;
}

/** The order a take hands kinds out in. */
const KINDS: readonly ThrottleKind[] = ['cancel', 'replace', 'place', 'cross'];

/**
 * The queue's entries: a map per kind, by key (looking an entry up builds no composite key string, which a
 * map would hash afresh: every intent looks one up). A kind's map iterates in queue order: a new entry is
 * appended with the next sequence number, and one superseding another takes its key, so its place and number.
 */
class EntryTable<E extends { readonly kind: ThrottleKind; readonly key: string }> {
  private readonly maps: Record<ThrottleKind, RenewingMap<string, E>> = {
    cancel: new RenewingMap(),
    replace: new RenewingMap(),
    place: new RenewingMap(),
    cross: new RenewingMap(),
  };
  get size(): number {
    const { cancel, replace, place, cross } = this.maps;
    return cancel.size + replace.size + place.size + cross.size;
  }

  get(kind: ThrottleKind, key: string): E | undefined {
    return this.maps[kind].get(key);
  }

  /** Puts the entry in (in place of the one of its kind and key, if any). */
  set(entry: E): void {
    this.maps[entry.kind].set(entry.key, entry);
  }

  delete(entry: E): void {
    this.maps[entry.kind].delete(entry.key);
  }

  /** The entries of one kind in queue order (deleting the current one while iterating is allowed). */
  ofKind(kind: ThrottleKind): IterableIterator<E> {
    return this.maps[kind].values();
  }

  /** Every entry in the order a take hands them out: by kind (cancels first), each kind's in queue order. */
  all(): E[] {
    const out: E[] = [];
    for (const kind of KINDS) for (const entry of this.maps[kind].values()) out.push(entry);
    return out;
  }
}

export class ThrottleQueue<T> {
  private readonly entries = new EntryTable<MutableEntry<T>>();
  /** Send times of the messages in the current window, oldest first. */
  private readonly sentTimes: number[] = [];
  private latest = Number.NEGATIVE_INFINITY;
  private seq = 0;
  /** Entries offered since the last take (what a take with no budget left only has to mark as waiting). */
  private fresh: MutableEntry<T>[] = [];
  private readonly batch: number;
  /** With fairness: the group whose turn it is first at the next take, and send times per group. */
  private turn = 0;
  private readonly groupTimes = new Map<string, number[]>();

  constructor(
    readonly limits: ThrottleLimits | undefined,
    private readonly windowMs = THROTTLE_WINDOW_MS,
    private readonly fairness?: ThrottleFairness<T>,
  ) {
    this.batch = limits === undefined ? 1 : drainBatch(limits.maxPerSecond);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Queues an entry; one of the same kind and key already waiting is superseded by it. */
  offer(kind: ThrottleKind, key: string, item: T, now: number): OfferResult<T> {
    const earlier = this.entries.get(kind, key);
    if (earlier === undefined && kind !== 'cancel' && this.limits !== undefined && this.entries.size >= this.limits.maxQueued) {
      return {
        accepted: false,
        reason: `${this.entries.size} requests already wait for the message budget (maxQueuedMessages ${this.limits.maxQueued})`,
      };
    }
    const entry: MutableEntry<T> = { kind, key, item, queuedAt: now, seq: earlier?.seq ?? this.seq++, waited: false };
    this.entries.set(entry);
    if (this.limits !== undefined) this.fresh.push(entry);
    return { accepted: true, superseded: earlier };
  }

  /** The item queued for this kind and key. */
  find(kind: ThrottleKind, key: string): T | undefined {
    return this.entries.get(kind, key)?.item;
  }

  /** Takes one entry out (made pointless by a later decision: superseded). */
  remove(kind: ThrottleKind, key: string): ThrottleEntry<T> | undefined {
    const entry = this.entries.get(kind, key);
    if (entry !== undefined) this.entries.delete(entry);
    return entry;
  }

  /** Takes out every entry of a kind whose item matches. */
  removeWhere(kind: ThrottleKind, matches: (item: T) => boolean): ThrottleEntry<T>[] {
    const removed: ThrottleEntry<T>[] = [];
    for (const entry of this.entries.ofKind(kind)) {
      if (matches(entry.item)) {
        this.entries.delete(entry);
        removed.push(entry);
      }
    }
    return removed;
  }

  /** Messages sent in the window ending at `now`. */
  sentInWindow(now: number): number {
    this.forget(Math.max(now, this.latest));
    return this.sentTimes.length;
  }

  /** What to send now (within the budget unless `force`), what expired, and what waits for the first time. */
  take(now: number, force = false): TakeResult<T> {
    if (this.entries.size === 0) {
      this.fresh = [];
      return { send: [], expired: [], nowWaiting: [] };
    }
    const limits = this.limits;
    let budget = limits === undefined || force ? Number.POSITIVE_INFINITY : limits.maxPerSecond - this.sentInWindow(now);
    // every engine step ends in a take: with less budget than a batch only what came since the last one is looked
    // at (the ages are checked at the next take that sends, at most a window later)
    if (budget < Math.min(this.entries.size, this.batch)) return { send: [], expired: [], nowWaiting: this.markFresh() };
    if (this.fresh.length > 0) this.fresh = [];
    // every intent passes through here: the table hands its entries out already in order (no sort); they are
    // handed out as they are (an entry is never changed once it has waited or left the map, so no copy is needed)
    const sorted = this.entries.all();
    const ordered = this.fairness === undefined ? sorted : this.roundRobin(sorted, this.fairness);
    const expired: ThrottleEntry<T>[] = [];
    const send: ThrottleEntry<T>[] = [];
    const nowWaiting: ThrottleEntry<T>[] = [];
    for (const entry of ordered) {
      if (limits !== undefined && entry.kind !== 'cancel' && now - entry.queuedAt > limits.maxAgeMs) {
        this.entries.delete(entry);
        expired.push(entry);
      } else if (budget > 0 && this.groupHasRoom(entry, now, force)) {
        budget -= 1;
        this.entries.delete(entry);
        send.push(entry);
        this.recordGroup(entry, now);
      } else if (!entry.waited) {
        entry.waited = true;
        nowWaiting.push(entry);
      }
    }
    if (limits !== undefined) this.record(now, send.length);
    return { send, expired, nowWaiting };
  }

  /** When the budget frees the next slot for what waits (undefined: nothing waits). */
  nextDrainAt(now: number): number | undefined {
    if (this.entries.size === 0) return undefined;
    if (this.limits === undefined) return now;
    const inWindow = this.sentInWindow(now);
    const need = Math.min(this.entries.size, this.batch);
    const free = this.limits.maxPerSecond - inWindow;
    // the newest of the messages that must leave the window for `need` slots to be free
    const shared = free >= need ? now : Math.max(now, (this.sentTimes[need - free - 1] ?? now) + this.windowMs);
    return this.fairness === undefined ? shared : Math.max(shared, this.groupsFreeAt(now, this.fairness));
  }

  /** When some waiting entry's group has room in its own budget again (now: one has, or it is a cancel). */
  private groupsFreeAt(now: number, fairness: ThrottleFairness<T>): number {
    let at = Number.POSITIVE_INFINITY;
    for (const entry of this.entries.all()) {
      if (entry.kind === 'cancel') return now;
      const group = fairness.groupOf(entry.item);
      const limit = fairness.limitOf(group);
      const times = this.groupTimes.get(group) ?? [];
      while (times.length > 0 && (times[0] ?? now) <= now - this.windowMs) times.shift();
      if (limit === undefined || times.length < limit) return now;
      at = Math.min(at, (times[times.length - limit] ?? now) + this.windowMs);
    }
    return Number.isFinite(at) ? at : now;
  }

  /** Cancels first, then the other entries one per group in turn (each group's in queue order). */
  private roundRobin(sorted: MutableEntry<T>[], fairness: ThrottleFairness<T>): MutableEntry<T>[] {
    const out = sorted.filter((entry) => entry.kind === 'cancel');
    const groups = new Map<string, MutableEntry<T>[]>();
    for (const entry of sorted) {
      if (entry.kind === 'cancel') continue;
      const group = fairness.groupOf(entry.item);
      const list = groups.get(group);
      if (list === undefined) groups.set(group, [entry]);
      else list.push(entry);
    }
    const lists = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, list]) => list);
    if (lists.length === 0) return out;
    const start = this.turn++ % lists.length;
    const rotated = [...lists.slice(start), ...lists.slice(0, start)];
    for (let i = 0; rotated.some((list) => i < list.length); i += 1) {
      for (const list of rotated) {
        const entry = list[i];
        if (entry !== undefined) out.push(entry);
      }
    }
    return out;
  }

  /** False when the entry's group used its own budget in the window (never for cancels or a forced take). */
  private groupHasRoom(entry: MutableEntry<T>, now: number, force: boolean): boolean {
    const fairness = this.fairness;
    if (fairness === undefined || force || entry.kind === 'cancel') return true;
    const group = fairness.groupOf(entry.item);
    const limit = fairness.limitOf(group);
    if (limit === undefined) return true;
    const times = this.groupTimes.get(group) ?? [];
    while (times.length > 0 && (times[0] ?? now) <= now - this.windowMs) times.shift();
    return times.length < limit;
  }

  private recordGroup(entry: MutableEntry<T>, now: number): void {
    const fairness = this.fairness;
    if (fairness === undefined || fairness.limitOf(fairness.groupOf(entry.item)) === undefined) return;
    const group = fairness.groupOf(entry.item);
    const times = this.groupTimes.get(group) ?? [];
    times.push(now);
    this.groupTimes.set(group, times);
  }

  /** The entries offered since the last take that still wait, marked as waiting. */
  private markFresh(): ThrottleEntry<T>[] {
    const marked: ThrottleEntry<T>[] = [];
    for (const entry of this.fresh) {
      if (entry.waited || this.entries.get(entry.kind, entry.key) !== entry) continue;
      entry.waited = true;
      marked.push(entry);
    }
    this.fresh = [];
    return marked;
  }

  private record(now: number, messages: number): void {
    if (messages === 0) return;
    this.latest = Math.max(now, this.latest);
    for (let i = 0; i < messages; i += 1) this.sentTimes.push(this.latest);
    this.forget(this.latest);
  }

  /** Drops send times that left the window ending at `end`. */
  private forget(end: number): void {
    const start = end - this.windowMs;
    let drop = 0;
    while (drop < this.sentTimes.length && (this.sentTimes[drop] ?? start) <= start) drop += 1;
    if (drop > 0) this.sentTimes.splice(0, drop);
  }
}
