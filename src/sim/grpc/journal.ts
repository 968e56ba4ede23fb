/**
 * The replay buffer behind the resumable streams (drop copy, trade capture): every execution and trade the
 * core publishes gets the next sequence number and is kept in a bounded ring (the newest `capacity`
 * entries), then fanned out live. A resume token is `<epoch>.<seq>`: the epoch is random per server run,
 * so a token from another run is refused instead of silently skipping or repeating messages. A stream
 * resumed from `seq` gets exactly the entries after it; a token older than the ring (or from the future)
 * cannot be honoured and the stream fails with OUT_OF_RANGE (the client starts afresh and reconciles).
 */
import { randomBytes } from 'node:crypto';
import { Subject, type Subscription } from 'rxjs';
import type { Execution, Trade } from '../matching/index.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';

export type JournalEntry =
  | {
      readonly seq: number;
      readonly kind: 'execution';
      readonly execution: Execution;
      /** The order's fills and last trade id as of this execution (the core's record at the time). */
      readonly fills: ReadonlyMap<number, number>;
      readonly lastTradeId: string | undefined;
      readonly symbol: string;
      readonly accounts: readonly string[];
    }
  | { readonly seq: number; readonly kind: 'trade'; readonly trade: Trade; readonly symbol: string; readonly accounts: readonly string[] };

export type ReplayResult = readonly JournalEntry[] | 'foreign' | 'too-old' | 'ahead';

export class Journal {
  readonly epoch = randomBytes(4).toString('hex');
  /** Entries as they are appended (after they are in the ring). */
  readonly live$ = new Subject<JournalEntry>();
  private readonly ring: (JournalEntry | undefined)[];
  private head = 0;
  private readonly subscription: Subscription;

  constructor(
    core: ExchangeCore,
    readonly capacity: number,
  ) {
    this.ring = new Array<JournalEntry | undefined>(capacity);
    this.subscription = core.events$.subscribe((event) => {
      if (event.kind === 'execution') {
        const e = event.execution;
        this.append({
          seq: this.head + 1,
          kind: 'execution',
          execution: e,
          fills: event.fills,
          lastTradeId: event.lastTradeId,
          symbol: e.order.symbol,
          accounts: [e.order.account],
        });
      } else if (event.kind === 'trade') {
        const t = event.trade;
        this.append({
          seq: this.head + 1,
          kind: 'trade',
          trade: t,
          symbol: t.symbol,
          accounts: [t.aggressor.order.account, t.passive.order.account],
        });
      }
    });
  }

  /** The sequence number of the newest entry (0 before the first). */
  get headSeq(): number {
    return this.head;
  }

  token(seq: number): string {
    return `${this.epoch}.${seq}`;
  }

  /** The entries after `token`, or why they cannot be replayed. */
  since(token: string): ReplayResult {
    const dot = token.lastIndexOf('.');
    const digits = token.slice(dot + 1);
    if (dot < 0 || token.slice(0, dot) !== this.epoch || !/^\d{1,15}$/.test(digits)) return 'foreign';
    const seq = Number(digits);
    if (seq > this.head) return 'ahead';
    const oldest = Math.max(1, this.head - this.capacity + 1);
    if (seq < oldest - 1) return 'too-old';
    const out: JournalEntry[] = [];
    for (let s = seq + 1; s <= this.head; s++) out.push(this.ring[s % this.capacity] as JournalEntry);
    return out;
  }

  close(): void {
    this.subscription.unsubscribe();
    this.live$.complete();
  }

  private append(entry: JournalEntry): void {
    this.head = entry.seq;
    this.ring[entry.seq % this.capacity] = entry;
    this.live$.next(entry);
  }
}
