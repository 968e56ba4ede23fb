/**
 * The soak's trading state record: every time the state leaves `active` (an outage, with the cause that
 * restricted it) and when it comes back, from the engine's `tradingState.changes$`. The verdict: every
 * outage ended within the allowed time, none was imposed by anything but the feed (a daily loss or a failed
 * strategy is sticky and would leave the rest of the soak not trading), and the state is active at the end.
 */
import type { Observable } from 'rxjs';
import type { TradingState, TradingStateChange } from '../../src/engine/risk/index.ts';

export interface Outage {
  /** Ms since the start of the run. */
  readonly startMs: number;
  readonly cause: string;
  readonly state: TradingState;
  readonly reason: string;
  /** Ms since the start when trading was active again; undefined while it lasts. */
  endMs: number | undefined;
}

export class OutageLog {
  readonly outages: Outage[] = [];

  constructor(private readonly startedAt: number) {}

  /** Follows the changes; `onEnd` hears of each outage once it is over. */
  follow(changes$: Observable<TradingStateChange>, onEnd: (outage: Outage) => void): { unsubscribe(): void } {
    return changes$.subscribe((change) => {
      const at = change.time - this.startedAt;
      const open = this.outages.at(-1);
      if (change.to === 'active') {
        if (open !== undefined && open.endMs === undefined) {
          open.endMs = at;
          onEnd(open);
        }
        return;
      }
      if (open === undefined || open.endMs !== undefined)
        this.outages.push({ startMs: at, cause: change.cause, state: change.to, reason: change.reason, endMs: undefined });
    });
  }

  /** What is wrong with the record: outages longer than `maxMs`, causes other than the feed, one still open. */
  problems(maxMs: number, nowMs: number): string[] {
    const problems: string[] = [];
    for (const o of this.outages) {
      const lasted = (o.endMs ?? nowMs) - o.startMs;
      if (o.cause !== 'feed') problems.push(`trading went ${o.state} at ${Math.round(o.startMs / 1000)} s for ${o.cause}: ${o.reason}`);
      if (o.endMs === undefined)
        problems.push(`trading still ${o.state} at the end (since ${Math.round(o.startMs / 1000)} s: ${o.reason})`);
      else if (lasted > maxMs)
        problems.push(
          `trading was ${o.state} for ${Math.round(lasted / 100) / 10} s from ${Math.round(o.startMs / 1000)} s ` +
            `(allowed ${maxMs / 1000} s)`,
        );
    }
    return problems;
  }

  get longestMs(): number {
    return Math.max(0, ...this.outages.filter((o) => o.endMs !== undefined).map((o) => (o.endMs as number) - o.startMs));
  }
}
