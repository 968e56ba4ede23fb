/**
 * Config rule `maxMessagesPerSecond`: a sliding-window throttle under the venue's message limit
 * (RISK_ORDER_RATE). Every approved intent is one message (a self-match cancel too); the window is the last
 * second of intent times, (t - 1000 ms, t]. Times come from the intents, never a wall clock, so a backtest
 * throttles exactly like a live run. A time earlier than one already seen counts as that later time (the
 * window never moves backwards). Only orders are refused: cancels are recorded but always pass, since
 * refusing a cancel would keep risk on the book.
 */
import type { RuleBreach } from './rule.ts';

export const RATE_WINDOW_MS = 1000;

export class MessageRateThrottle {
  private readonly times: number[] = [];
  private latest = Number.NEGATIVE_INFINITY;
  private readonly maxPerWindow: number;
  private readonly windowMs: number;

  constructor(maxPerWindow: number, windowMs = RATE_WINDOW_MS) {
    this.maxPerWindow = maxPerWindow;
    this.windowMs = windowMs;
  }

  /** Messages counted in the window ending at `time`. */
  count(time: number): number {
    const end = Math.max(time, this.latest);
    let n = 0;
    for (let i = this.times.length - 1; i >= 0 && (this.times[i] ?? end) > end - this.windowMs; i -= 1) n += 1;
    return n;
  }

  /** A breach when `messages` more at `time` would exceed the limit. */
  check(time: number, messages: number): RuleBreach | undefined {
    const inWindow = this.count(time);
    if (inWindow + messages <= this.maxPerWindow) return undefined;
    return {
      code: 'RISK_ORDER_RATE',
      message:
        `${inWindow} messages in the last ${this.windowMs} ms: ` +
        `${messages} more would exceed maxMessagesPerSecond ${this.maxPerWindow}`,
    };
  }

  record(time: number, messages: number): void {
    this.latest = Math.max(time, this.latest);
    for (let i = 0; i < messages; i += 1) this.times.push(this.latest);
    const start = this.latest - this.windowMs;
    let drop = 0;
    while (drop < this.times.length && (this.times[drop] ?? start) <= start) drop += 1;
    if (drop > 0) this.times.splice(0, drop);
  }
}
