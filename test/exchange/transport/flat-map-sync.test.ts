/** flatMapSync: the items of each value's array in order, errors passed on, nothing after unsubscribing. */
import { Subject, mergeMap, of, toArray, lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { flatMapSync } from '../../../src/exchange/transport/index.ts';

describe('flatMapSync', () => {
  it('emits what mergeMap emits for array results, in order', async () => {
    const project = (n: number): number[] => Array.from({ length: n % 4 }, (_, i) => n * 10 + i);
    const values = [1, 2, 3, 4, 5, 6, 7];
    const expected = await lastValueFrom(of(...values).pipe(mergeMap(project), toArray()));
    expect(await lastValueFrom(of(...values).pipe(flatMapSync(project), toArray()))).toEqual(expected);
  });

  it('errors the output when the projection throws, and passes source errors and completion on', () => {
    const source = new Subject<number>();
    const seen: string[] = [];
    source
      .pipe(
        flatMapSync((n) =>
          n < 0
            ? (() => {
                throw new Error('negative');
              })()
            : [n],
        ),
      )
      .subscribe({
        next: (n) => seen.push(`next ${n}`),
        error: (error: unknown) => seen.push(`error ${(error as Error).message}`),
      });
    source.next(1);
    source.next(-1);
    source.next(2);
    expect(seen).toEqual(['next 1', 'error negative']);
    const other = new Subject<number>();
    const done: string[] = [];
    other.pipe(flatMapSync((n) => [n])).subscribe({ complete: () => done.push('complete') });
    other.complete();
    expect(done).toEqual(['complete']);
  });

  it('stops emitting an array once the subscriber unsubscribes', () => {
    const source = new Subject<number>();
    const seen: number[] = [];
    const subscription = source.pipe(flatMapSync(() => [1, 2, 3])).subscribe((n) => {
      seen.push(n);
      if (n === 2) subscription.unsubscribe();
    });
    source.next(0);
    expect(seen).toEqual([1, 2]);
  });
});
