/**
 * The tracker's outgoing events: three Subjects fed through one FIFO queue. Events are queued while state
 * changes and delivered afterwards; a subscriber that calls back into the tracker during delivery gets its
 * events queued behind the ones already waiting, so every subscriber sees events in the order they happened.
 */
import { Subject, type Observable } from 'rxjs';
import type { Fill, OrderUpdate, TrackerIssue } from './types.ts';

type Outgoing =
  | { readonly kind: 'update'; readonly value: OrderUpdate }
  | { readonly kind: 'fill'; readonly value: Fill }
  | { readonly kind: 'issue'; readonly value: TrackerIssue };

export class Outbox {
  private readonly updateSubject = new Subject<OrderUpdate>();
  private readonly fillSubject = new Subject<Fill>();
  private readonly issueSubject = new Subject<TrackerIssue>();
  private readonly queue: Outgoing[] = [];
  private flushing = false;

  readonly updates$: Observable<OrderUpdate> = this.updateSubject.asObservable();
  readonly fills$: Observable<Fill> = this.fillSubject.asObservable();
  readonly issues$: Observable<TrackerIssue> = this.issueSubject.asObservable();

  update(value: OrderUpdate): void {
    this.queue.push({ kind: 'update', value });
  }

  fill(value: Fill): void {
    this.queue.push({ kind: 'fill', value });
  }

  issue(value: TrackerIssue): void {
    this.queue.push({ kind: 'issue', value });
  }

  /** Delivers everything queued (no-op when already delivering: the outer loop picks the new items up). */
  flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (let item = this.queue.shift(); item !== undefined; item = this.queue.shift()) {
        if (item.kind === 'update') this.updateSubject.next(item.value);
        else if (item.kind === 'fill') this.fillSubject.next(item.value);
        else this.issueSubject.next(item.value);
      }
    } finally {
      this.flushing = false;
    }
  }

  complete(): void {
    this.updateSubject.complete();
    this.fillSubject.complete();
    this.issueSubject.complete();
  }
}
