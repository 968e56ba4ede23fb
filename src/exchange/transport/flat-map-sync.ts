/**
 * `flatMapSync(project)`: each value becomes the items of the array `project` returns, emitted in order at
 * once; what `mergeMap(project)` does with an array result, without an inner subscription per value (the
 * streams decode every message through it, so it is on each message's path). A throwing `project` errors
 * the output; emission stops as soon as the subscriber is closed.
 */
import { Observable } from 'rxjs';
import type { OperatorFunction } from 'rxjs';

export function flatMapSync<T, R>(project: (value: T) => readonly R[]): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) =>
      source.subscribe({
        next(value) {
          let items: readonly R[];
          try {
            items = project(value);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          for (let i = 0; i < items.length && !subscriber.closed; i++) subscriber.next(items[i] as R);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
}
