/**
 * The shared-memory ring the tape worker hands trades over in (no message, copy or allocation per batch):
 * trade columns in SharedArrayBuffers, and a small ring of commits, each the end position of the trades
 * written so far with the running TapeStats and bytes read. The worker (RingWriter) copies each batch of
 * released trades in and commits it; the replay thread (RingReader) reads the committed trades in place,
 * commit after commit, then releases them. The writer blocks (Atomics.wait) while the ring or the commit
 * slots are full, until a quarter of the ring (or of the slots) is free again; the reader awaits (Atomics.waitAsync) while
 * nothing is committed: a counter bumped on every commit and state change is what it waits on, so no
 * wake-up is lost. The ring's memory is fixed:
 * `capacity` trades and `slots` commits ahead at most.
 */
import { TradeBatch } from './trade-batch.ts';
import { emptyTapeStats, type TapeStats } from './trade-extractor.ts';

/** Int32 control words. */
const SEQ = 0; // bumped on every commit and state change (the reader waits on it)
const READ = 1; // commits released by the reader (the writer waits on it)
const STATE = 2; // 0 while running, then DONE or FAILED
const WAITS = 3; // times the writer waited for room
const WRITTEN = 4; // commits written
const READY = 5; // 1 once the worker has started up (it then waits for where to start)
const WANT = 6; // while the writer waits: the count of released commits that wakes it (0: not waiting)
const DONE = 1;
const FAILED = 2;

/** A commit's record: end position, bytes read, then the TapeStats in STAT_KEYS order. */
const STAT_KEYS = [
  'lines',
  'records',
  'fullParses',
  'empty',
  'busted',
  'lateBusts',
  'duplicates',
] as const satisfies readonly (keyof TapeStats)[];
const RECORD = 2 + STAT_KEYS.length;

export interface TradeRingBuffers {
  readonly capacity: number;
  readonly slots: number;
  readonly control: SharedArrayBuffer;
  /** [0]: end position of the trades the reader released. */
  readonly released: SharedArrayBuffer;
  readonly commits: SharedArrayBuffer;
  readonly sym: SharedArrayBuffer;
  readonly price: SharedArrayBuffer;
  readonly qty: SharedArrayBuffer;
  readonly buy: SharedArrayBuffer;
  readonly time: SharedArrayBuffer;
  readonly line: SharedArrayBuffer;
}

export function createTradeRing(capacity: number, slots: number): TradeRingBuffers {
  const shared = (bytes: number) => new SharedArrayBuffer(bytes);
  return {
    capacity,
    slots,
    control: shared(4 * 7),
    released: shared(8),
    commits: shared(8 * RECORD * slots),
    sym: shared(4 * capacity),
    price: shared(8 * capacity),
    qty: shared(8 * capacity),
    buy: shared(capacity),
    time: shared(8 * capacity),
    line: shared(8 * capacity),
  };
}

/** The ring's columns as a TradeBatch of `capacity` rows. */
function columns(b: TradeRingBuffers): TradeBatch {
  const batch = new TradeBatch(0);
  batch.sym = new Int32Array(b.sym);
  batch.price = new Float64Array(b.price);
  batch.qty = new Float64Array(b.qty);
  batch.buy = new Uint8Array(b.buy);
  batch.time = new Float64Array(b.time);
  batch.line = new Float64Array(b.line);
  batch.count = b.capacity;
  return batch;
}

/** The worker's side. */
export class RingWriter {
  private readonly control: Int32Array;
  private readonly released: Float64Array;
  private readonly commits: Float64Array;
  private readonly ring: TradeBatch;
  private written = 0;
  private commitCount = 0;

  constructor(private readonly buffers: TradeRingBuffers) {
    this.control = new Int32Array(buffers.control);
    this.released = new Float64Array(buffers.released);
    this.commits = new Float64Array(buffers.commits);
    this.ring = columns(buffers);
  }

  /** Copies the batch's trades in and commits them with these counts (waits for room as needed). */
  write(batch: TradeBatch, stats: TapeStats, bytesRead: number): void {
    const capacity = this.buffers.capacity;
    for (let from = 0; from < batch.count;) {
      let room = 0;
      for (;;) {
        // READ first: the reader stores `released` before it, so this is at least that recent
        const read = Atomics.load(this.control, READ);
        room = capacity - (this.written - (this.released[0] as number));
        if (room > 0) break;
        this.waitUntil(this.roomTarget(read));
      }
      const at = this.written % capacity;
      const n = Math.min(batch.count - from, room, capacity - at);
      const r = this.ring;
      r.sym.set(batch.sym.subarray(from, from + n), at);
      r.price.set(batch.price.subarray(from, from + n), at);
      r.qty.set(batch.qty.subarray(from, from + n), at);
      r.buy.set(batch.buy.subarray(from, from + n), at);
      r.time.set(batch.time.subarray(from, from + n), at);
      r.line.set(batch.line.subarray(from, from + n), at);
      this.written += n;
      from += n;
      this.commit(stats, bytesRead);
    }
  }

  /** The worker has started up. */
  ready(): void {
    Atomics.store(this.control, READY, 1);
    Atomics.notify(this.control, READY);
  }

  /** The last commit (its counts), then the end. */
  finish(stats: TapeStats, bytesRead: number): void {
    this.commit(stats, bytesRead);
    this.setState(DONE);
  }

  /** The worker failed (its error is posted as a message first). */
  fail(): void {
    this.setState(FAILED);
  }

  private commit(stats: TapeStats, bytesRead: number): void {
    for (
      let read = Atomics.load(this.control, READ);
      this.commitCount - read >= this.buffers.slots;
      read = Atomics.load(this.control, READ)
    )
      this.wait(read);
    const at = (this.commitCount % this.buffers.slots) * RECORD;
    const c = this.commits;
    c[at] = this.written;
    c[at + 1] = bytesRead;
    for (let k = 0; k < STAT_KEYS.length; k++) c[at + 2 + k] = stats[STAT_KEYS[k] as keyof TapeStats];
    this.commitCount++;
    Atomics.store(this.control, WRITTEN, this.commitCount);
    Atomics.add(this.control, SEQ, 1);
    Atomics.notify(this.control, SEQ);
  }

  /**
   * The count of released commits that frees a quarter of the trade ring: the first commit whose end
   * leaves that much room once released. (Waiting for a quarter of the commit slots instead would, with
   * commits of thousands of trades, wait for the reader to empty the ring and then stall it while the next
   * chunk is read.)
   */
  private roomTarget(read: number): number {
    const keep = this.buffers.capacity - Math.max(1, this.buffers.capacity >> 2);
    for (let j = read; j < this.commitCount; j++) {
      const end = this.commits[(j % this.buffers.slots) * RECORD] as number;
      if (this.written - end <= keep) return j + 1;
    }
    return this.commitCount;
  }

  /**
   * Waits until the reader has released more than `read` commits: until it has released a quarter of
   * the commit slots more (all it can when fewer are written), so the two threads do not wake each other
   * for every commit.
   */
  private wait(read: number): void {
    this.waitUntil(Math.min(this.commitCount, read + Math.max(1, this.buffers.slots >> 2)));
  }

  /** Waits until the reader has released `target` commits (it wakes the writer only then: WANT). */
  private waitUntil(target: number): void {
    Atomics.store(this.control, WANT, target);
    Atomics.add(this.control, WAITS, 1);
    Atomics.notify(this.control, WAITS);
    for (let r = Atomics.load(this.control, READ); r < target; r = Atomics.load(this.control, READ)) Atomics.wait(this.control, READ, r);
    Atomics.store(this.control, WANT, 0);
  }

  private setState(state: number): void {
    Atomics.store(this.control, STATE, state);
    Atomics.add(this.control, SEQ, 1);
    Atomics.notify(this.control, SEQ);
  }
}

/** Atomics.waitAsync (Node >= 16; not in this TypeScript lib yet). */
const waitAsync = (
  Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { value: Promise<string> | string } }
).waitAsync;

/** What one commit hands the replay thread: its trades (one or two views, the ring may wrap) and counts. */
export interface RingCommit {
  readonly batches: readonly TradeBatch[];
  readonly stats: TapeStats;
  readonly bytesRead: number;
}

/** The replay thread's side. */
export class RingReader {
  private readonly control: Int32Array;
  private readonly released: Float64Array;
  private readonly commits: Float64Array;
  private readonly ring: TradeBatch;
  private readonly views = [new TradeBatch(0), new TradeBatch(0)];
  private read = 0;
  private start = 0;
  private holding = false;
  private holdingEnd = 0;

  constructor(private readonly buffers: TradeRingBuffers) {
    this.control = new Int32Array(buffers.control);
    this.released = new Float64Array(buffers.released);
    this.commits = new Float64Array(buffers.commits);
    this.ring = columns(buffers);
  }

  /** Commits written and not taken yet. */
  get pending(): number {
    return Atomics.load(this.control, WRITTEN) - this.read - (this.holding ? 1 : 0);
  }

  /** The worker has started up. */
  get ready(): boolean {
    return Atomics.load(this.control, READY) === 1;
  }

  /** Resolves once the worker has started up. */
  async whenReady(): Promise<void> {
    while (Atomics.load(this.control, READY) === 0) await waitAsync(this.control, READY, 0).value;
  }

  /** Times the writer waited for room. */
  get writerWaits(): number {
    return Atomics.load(this.control, WAITS);
  }

  /** Resolves once the writer has waited for room `times` times in all. */
  async writerWaited(times: number): Promise<void> {
    for (let seen = Atomics.load(this.control, WAITS); seen < times; seen = Atomics.load(this.control, WAITS))
      await waitAsync(this.control, WAITS, seen).value;
  }

  /**
   * The next commit (valid until the next call), or undefined after the last one; rejects with what
   * `failure()` returns when the writer failed or `check()` says to stop.
   */
  async next(failure: () => Promise<Error>, check: () => Error | undefined): Promise<RingCommit | undefined> {
    this.release();
    for (;;) {
      const seq = Atomics.load(this.control, SEQ);
      const state = Atomics.load(this.control, STATE);
      if (this.read < Atomics.load(this.control, WRITTEN)) return this.take();
      if (state === DONE) return undefined;
      if (state === FAILED) throw await failure();
      const stop = check();
      if (stop !== undefined) throw stop;
      await waitAsync(this.control, SEQ, seq).value;
    }
  }

  /** Wakes a pending `next` (to see what `check` now says). */
  wake(): void {
    Atomics.add(this.control, SEQ, 1);
    Atomics.notify(this.control, SEQ);
  }

  private take(): RingCommit {
    const at = (this.read % this.buffers.slots) * RECORD;
    const c = this.commits;
    const end = c[at] as number;
    const stats = emptyTapeStats();
    for (let k = 0; k < STAT_KEYS.length; k++) stats[STAT_KEYS[k] as keyof TapeStats] = c[at + 2 + k] as number;
    const batches: TradeBatch[] = [];
    const capacity = this.buffers.capacity;
    for (let from = this.start, v = 0; from < end; v++) {
      const offset = from % capacity;
      const n = Math.min(end - from, capacity - offset);
      batches.push(this.view(this.views[v] as TradeBatch, offset, n));
      from += n;
    }
    this.holding = true;
    this.holdingEnd = end;
    return { batches, stats, bytesRead: c[at + 1] as number };
  }

  private view(batch: TradeBatch, offset: number, n: number): TradeBatch {
    const r = this.ring;
    batch.sym = r.sym.subarray(offset, offset + n);
    batch.price = r.price.subarray(offset, offset + n);
    batch.qty = r.qty.subarray(offset, offset + n);
    batch.buy = r.buy.subarray(offset, offset + n);
    batch.time = r.time.subarray(offset, offset + n);
    batch.line = r.line.subarray(offset, offset + n);
    batch.count = n;
    return batch;
  }

  /** Gives the trades of the commit last taken back to the writer. */
  private release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.start = this.holdingEnd;
    this.read++;
    this.released[0] = this.start;
    Atomics.store(this.control, READ, this.read);
    const want = Atomics.load(this.control, WANT);
    if (want !== 0 && this.read >= want) Atomics.notify(this.control, READ);
  }
}
