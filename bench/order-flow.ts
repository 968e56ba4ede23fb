/**
 * A seeded, pregenerated order flow for matching benchmarks: limit inserts at random prices around a
 * slowly wandering mid (about 30% of inserts priced to cross the spread), and about 20% of operations
 * cancels of earlier passive inserts (mostly still live; some will have filled, which the engines report as
 * failed cancels). Everything is plain arrays so both engines under test read the same data at no cost.
 */

export const OP_INSERT = 0;
export const OP_CANCEL = 1;

export interface OrderFlow {
  readonly length: number;
  /** OP_INSERT or OP_CANCEL per operation. */
  readonly kind: Uint8Array;
  /** 1 = buy, 0 = sell (inserts). */
  readonly isBuy: Uint8Array;
  /** Raw price (inserts). */
  readonly price: Int32Array;
  /** Raw quantity (inserts). */
  readonly qty: Int32Array;
  /** 1 = immediate-or-cancel (inserts): what does not trade at once is cancelled rather than resting. */
  readonly ioc: Uint8Array;
  /** For a cancel: index of the insert operation whose order it cancels. */
  readonly target: Int32Array;
  /** 1 for an insert that a later operation cancels. */
  readonly cancelled: Uint8Array;
  readonly inserts: number;
  readonly cancels: number;
  readonly marketable: number;
}

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FlowOptions {
  seed: number;
  operations: number;
  /** Share of operations that are cancels (default 0.2). */
  cancelShare?: number;
  /** Share of inserts priced through the mid (default 0.3). */
  marketableShare?: number;
  /** Share of marketable inserts that are immediate-or-cancel (default 0.5); the others rest what is left. */
  iocShare?: number;
  /** Price band (raw, inclusive) the mid wanders in (mean-reverting to its centre). */
  low?: number;
  high?: number;
}

export function makeFlow(opts: FlowOptions): OrderFlow {
  const n = opts.operations;
  const cancelShare = opts.cancelShare ?? 0.2;
  const marketableShare = opts.marketableShare ?? 0.3;
  const iocShare = opts.iocShare ?? 0.5;
  const low = opts.low ?? 45;
  const high = opts.high ?? 55;
  const centre = Math.round((low + high) / 2);
  const rand = rng(opts.seed);
  const kind = new Uint8Array(n);
  const isBuy = new Uint8Array(n);
  const price = new Int32Array(n);
  const qty = new Int32Array(n);
  const target = new Int32Array(n).fill(-1);
  const ioc = new Uint8Array(n);
  const mirror = new MirrorBook(n);
  let mid = centre;
  let inserts = 0;
  let cancels = 0;
  let marketable = 0;
  for (let i = 0; i < n; i++) {
    if (i % 500 === 0) {
      // Mean-reverting walk: a step towards the centre is likelier the further the mid has drifted.
      const up = rand() < 0.5 + (centre - mid) / (high - low);
      mid = Math.min(high, Math.max(low, mid + (up ? 1 : -1)));
    }
    if (mirror.liveCount() > 0 && rand() < cancelShare) {
      kind[i] = OP_CANCEL;
      target[i] = mirror.cancelRandom(rand());
      cancels++;
      continue;
    }
    kind[i] = OP_INSERT;
    const buy = rand() < 0.5;
    isBuy[i] = buy ? 1 : 0;
    inserts++;
    if (rand() < marketableShare) {
      // Priced 1..4 ticks through the mid: takes the best offers (bids) and may sweep a level or two.
      const through = 1 + Math.floor(rand() * 4);
      price[i] = buy ? mid + through : mid - through;
      qty[i] = 1 + Math.floor(rand() * 20);
      ioc[i] = rand() < iocShare ? 1 : 0;
      marketable++;
    } else {
      const away = 1 + Math.floor(rand() * 4);
      price[i] = buy ? mid - away : mid + away;
      qty[i] = 1 + Math.floor(rand() * 10);
    }
    mirror.insert(i, buy, price[i] as number, qty[i] as number, ioc[i] === 1);
  }
  const cancelled = new Uint8Array(n);
  for (let i = 0; i < n; i++) if ((target[i] as number) >= 0) cancelled[target[i] as number] = 1;
  return { length: n, kind, isBuy, price, qty, ioc, target, cancelled, inserts, cancels, marketable };
}

/**
 * A minimal price-time book used only while generating a flow, so that cancels target orders that are
 * really live at that point. Prices are small integers (< 128); each level is a FIFO of op indices.
 */
class MirrorBook {
  private readonly left: Int32Array;
  private readonly side: Uint8Array;
  private readonly levels: number[][][] = [[], []];
  private readonly heads: number[][] = [[], []];
  private readonly live: number[] = [];
  private readonly livePos: Int32Array;

  constructor(n: number) {
    this.left = new Int32Array(n);
    this.side = new Uint8Array(n);
    this.livePos = new Int32Array(n).fill(-1);
    for (let s = 0; s < 2; s++) {
      for (let p = 0; p < 128; p++) {
        (this.levels[s] as number[][]).push([]);
        (this.heads[s] as number[]).push(0);
      }
    }
  }

  liveCount(): number {
    return this.live.length;
  }

  insert(i: number, buy: boolean, px: number, q: number, ioc: boolean): void {
    let remaining = q;
    const contra = buy ? 0 : 1;
    const levels = this.levels[contra] as number[][];
    const heads = this.heads[contra] as number[];
    for (let p = buy ? 0 : 127; buy ? p <= px : p >= px; p += buy ? 1 : -1) {
      const queue = levels[p] as number[];
      let h = heads[p] as number;
      while (remaining > 0 && h < queue.length) {
        const o = queue[h] as number;
        const take = Math.min(remaining, this.left[o] as number);
        remaining -= take;
        this.left[o] = (this.left[o] as number) - take;
        if (this.left[o] === 0) {
          this.dropLive(o);
          h++;
        }
      }
      heads[p] = h;
      if (remaining === 0) break;
    }
    if (remaining > 0 && !ioc) {
      this.left[i] = remaining;
      this.side[i] = buy ? 1 : 0;
      ((this.levels[buy ? 1 : 0] as number[][])[px] as number[]).push(i);
      this.livePos[i] = this.live.length;
      this.live.push(i);
    }
  }

  /** Cancel a uniformly chosen live order; returns its op index. */
  cancelRandom(r: number): number {
    const o = this.live[Math.floor(r * this.live.length)] as number;
    this.left[o] = 0;
    this.dropLive(o);
    // Its queue entry is skipped lazily: matching meets left 0 and moves past it.
    return o;
  }

  private dropLive(o: number): void {
    const pos = this.livePos[o] as number;
    if (pos < 0) return;
    const last = this.live.pop() as number;
    if (last !== o) {
      this.live[pos] = last;
      this.livePos[last] = pos;
    }
    this.livePos[o] = -1;
  }
}
