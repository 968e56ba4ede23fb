/**
 * Identifier generation. Orders, executions and trades are numbered by three monotonic counters; the
 * string form (prefix + kind letter + zero-padded decimal, e.g. "O0000000000000042") is built only when a
 * consumer asks for it, so the hot path handles plain numbers. Padding to 16 digits keeps the strings in
 * the same order as the numbers, so exec ids sort lexicographically in emission order.
 */

const WIDTH = 16;

export function formatId(prefix: string, seq: number): string {
  return prefix + String(seq).padStart(WIDTH, '0');
}

/** The sequence number encoded in `id`, or 0 when `id` was not made by formatId with this prefix. */
export function parseId(prefix: string, id: string): number {
  if (id.length !== prefix.length + WIDTH || !id.startsWith(prefix)) return 0;
  let n = 0;
  for (let i = prefix.length; i < id.length; i++) {
    const c = id.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return 0;
    n = n * 10 + c;
  }
  return Number.isSafeInteger(n) ? n : 0;
}

/** The last number issued by each counter (a saved engine state). */
export interface IdCounters {
  order: number;
  exec: number;
  trade: number;
  priority: number;
}

/** The engine's counters. Sequence numbers start at 1; 0 means "none". */
export class IdGenerator {
  readonly orderPrefix: string;
  readonly execPrefix: string;
  readonly tradePrefix: string;
  private order = 0;
  private exec = 0;
  private trade = 0;
  private priority = 0;

  constructor(prefix = '') {
    this.orderPrefix = prefix + 'O';
    this.execPrefix = prefix + 'E';
    this.tradePrefix = prefix + 'T';
  }

  nextOrder(): number {
    return ++this.order;
  }

  nextExec(): number {
    return ++this.exec;
  }

  nextTrade(): number {
    return ++this.trade;
  }

  /** Time priority stamp: a resting order with a smaller stamp came first. */
  nextPriority(): number {
    return ++this.priority;
  }

  /** Highest order number issued so far (to tell a finished order from one that never existed). */
  lastOrder(): number {
    return this.order;
  }

  counters(): IdCounters {
    return { order: this.order, exec: this.exec, trade: this.trade, priority: this.priority };
  }

  /** Continues after saved counters (a restart): never goes back, so no id is issued twice. */
  restore(saved: IdCounters): void {
    this.order = Math.max(this.order, saved.order);
    this.exec = Math.max(this.exec, saved.exec);
    this.trade = Math.max(this.trade, saved.trade);
    this.priority = Math.max(this.priority, saved.priority);
  }
}
