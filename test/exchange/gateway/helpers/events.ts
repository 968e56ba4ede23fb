/**
 * Records a stream's events so a test can wait for one (no fixed sleeps): `waitFor(predicate)` resolves with
 * the first recorded or future event that matches, or fails after `ms` with the events seen so far.
 */
import { ReplaySubject, filter, firstValueFrom, timeout } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';

export interface Recorder<T> {
  readonly events: T[];
  waitFor<S extends T>(predicate: (event: T) => event is S, ms?: number): Promise<S>;
  waitFor(predicate: (event: T) => boolean, ms?: number): Promise<T>;
  /** The error the stream ended with, once it has. */
  readonly failed: Promise<unknown>;
  stop(): void;
}

export function record<T>(source: Observable<T>): Recorder<T> {
  const events: T[] = [];
  const subject = new ReplaySubject<T>();
  let fail: (error: unknown) => void = () => undefined;
  const failed = new Promise<unknown>((resolve) => (fail = resolve));
  const subscription: Subscription = source.subscribe({
    next: (event) => {
      events.push(event);
      subject.next(event);
    },
    error: (error: unknown) => {
      fail(error);
      subject.complete();
    },
    complete: () => subject.complete(),
  });
  const waitFor = (predicate: (event: T) => boolean, ms = 5_000): Promise<T> =>
    firstValueFrom(
      subject.pipe(
        filter(predicate),
        timeout({
          first: ms,
          with: () => {
            throw new Error(`no matching event within ${ms} ms; saw: ${events.map((e) => JSON.stringify(e, summarise)).join('\n')}`);
          },
        }),
      ),
    );
  return { events, waitFor: waitFor as Recorder<T>['waitFor'], failed, stop: () => subscription.unsubscribe() };
}

/** Keeps event dumps short: Decimals as strings, orders reduced to id/state. */
function summarise(this: unknown, key: string, value: unknown): unknown {
  if (key === 'order' && typeof value === 'object' && value !== null) {
    const o = value as { id?: unknown; state?: unknown };
    return { id: o.id, state: o.state };
  }
  return value;
}
