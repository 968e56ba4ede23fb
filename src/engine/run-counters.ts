/**
 * Counters of a run (orders sent, fills, refusals by code, reconnects), read by the status line, the
 * `run.summary` line, metrics and reports.
 */
export class RunCounters {
  intents = 0;
  fills = 0;
  adopted = 0;
  /** Orders an earlier run left in flight, tracked again from the order journal. */
  restored = 0;
  strategyErrors = 0;
  bookUpdates = 0;
  /** Book updates older than one already applied (a repeated or swapped delivery), not applied. */
  bookUpdatesOutOfOrder = 0;
  feedDisconnects = 0;
  orderStreamConnects = 0;
  reconciliations = 0;
  /** Orders missing from a reconnect's order-stream snapshot whose end the exchange told on a lookup. */
  gapLookups = 0;
  /** Orders the exchange still worked that the bot held for finished, cancelled by a reconciliation. */
  zombiesCancelled = 0;
  readonly sentByKind: Record<'insert' | 'cancel' | 'replace' | 'cross', number> = { insert: 0, cancel: 0, replace: 0, cross: 0 };
  readonly refusals: Record<string, number> = {};

  sent(kind: 'insert' | 'cancel' | 'replace' | 'cross', count: number): void {
    this.sentByKind[kind] += count;
  }

  refused(code: string): void {
    this.refusals[code] = (this.refusals[code] ?? 0) + 1;
  }

  get orders(): number {
    return this.sentByKind.insert + this.sentByKind.cross * 2;
  }

  get refusalCount(): number {
    return Object.values(this.refusals).reduce((a, b) => a + b, 0);
  }
}
