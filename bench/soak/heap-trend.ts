/**
 * The soak's memory verdict: post-GC heap samples of the bot process over the second half of the run (after
 * warm-up, caches and bounded buffers filled), a least-squares line through them, and its slope in MB per
 * minute against a bound. A process whose live heap keeps growing at a steady rate fails, however much
 * headroom its RSS still has; noise (a few hundred KB between collections) stays far below the bound.
 */

export interface HeapSample {
  /** Milliseconds since the start of the run. */
  readonly atMs: number;
  /** Heap used after a full GC, bytes. */
  readonly heapUsed: number;
}

export interface HeapTrend {
  /** Samples in the window. */
  readonly samples: number;
  /** From when (ms since start) the window runs. */
  readonly fromMs: number;
  /** Fitted growth, MB per minute (negative: shrinking); undefined with fewer than 3 samples. */
  readonly slopeMbPerMin: number | undefined;
  /** Heap used at the first and last sample of the window, MB. */
  readonly firstMb: number | undefined;
  readonly lastMb: number | undefined;
  readonly boundMbPerMin: number;
  /** True when the slope is known and within the bound. */
  readonly ok: boolean;
}

const MB = 1024 * 1024;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Least-squares slope of y over x; undefined with fewer than 2 distinct x. */
export function slope(points: readonly { x: number; y: number }[]): number | undefined {
  const n = points.length;
  if (n < 2) return undefined;
  const meanX = points.reduce((s, p) => s + p.x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - meanX) * (p.y - meanY);
    sxx += (p.x - meanX) ** 2;
  }
  return sxx === 0 ? undefined : sxy / sxx;
}

/** The trend of the samples taken at or after `fromMs`, judged against `boundMbPerMin`. */
export function heapTrend(samples: readonly HeapSample[], fromMs: number, boundMbPerMin: number): HeapTrend {
  const window = samples.filter((s) => s.atMs >= fromMs);
  const fitted = window.length >= 3 ? slope(window.map((s) => ({ x: s.atMs / 60_000, y: s.heapUsed / MB }))) : undefined;
  const first = window[0];
  const last = window.at(-1);
  return {
    samples: window.length,
    fromMs,
    slopeMbPerMin: fitted === undefined ? undefined : round(fitted, 3),
    firstMb: first === undefined ? undefined : round(first.heapUsed / MB, 1),
    lastMb: last === undefined ? undefined : round(last.heapUsed / MB, 1),
    boundMbPerMin,
    ok: fitted !== undefined && fitted <= boundMbPerMin,
  };
}
