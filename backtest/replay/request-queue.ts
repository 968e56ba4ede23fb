/**
 * Venue requests in flight: each arrives at the exchange at `sentAt + latency` (virtual ms) and is
 * applied then, in (arrival, send order) order. A binary min-heap, so mixed insert and cancel latencies
 * keep their true order.
 */

export interface QueuedRequest {
  readonly arrival: number;
  readonly seq: number;
  readonly apply: () => void;
}

export class RequestQueue {
  private readonly heap: QueuedRequest[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Arrival time of the next request, or +Infinity. */
  peekTime(): number {
    return this.heap[0]?.arrival ?? Number.POSITIVE_INFINITY;
  }

  push(arrival: number, apply: () => void): void {
    const heap = this.heap;
    heap.push({ arrival, seq: this.seq++, apply });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as QueuedRequest, heap[parent] as QueuedRequest)) break;
      [heap[i], heap[parent]] = [heap[parent] as QueuedRequest, heap[i] as QueuedRequest];
      i = parent;
    }
  }

  pop(): QueuedRequest | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l] as QueuedRequest, heap[m] as QueuedRequest)) m = l;
      if (r < heap.length && before(heap[r] as QueuedRequest, heap[m] as QueuedRequest)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m] as QueuedRequest, heap[i] as QueuedRequest];
      i = m;
    }
    return top;
  }
}

function before(a: QueuedRequest, b: QueuedRequest): boolean {
  return a.arrival < b.arrival || (a.arrival === b.arrival && a.seq < b.seq);
}
