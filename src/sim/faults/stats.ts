/**
 * What the fault injector has done so far, by kind: tests wait on these counters (a fault happened) and
 * soaks report them.
 */
export interface FaultStats {
  /** Requests answered with an injected 429 / 5xx instead of being processed. */
  errors: number;
  /** Replies held back (processed requests). */
  delays: number;
  /** Connections destroyed in the middle of a reply (processed requests). */
  resets: number;
  /** Times every open stream was dropped. */
  drops: number;
  /** Streams stalled (silent but connected). */
  stalledStreams: number;
  /** Execution updates sent twice. */
  duplicated: number;
  /** Adjacent execution updates swapped. */
  reordered: number;
  /** Market data book updates sent twice. */
  marketDataDuplicated: number;
  /** Adjacent market data book updates swapped. */
  marketDataReordered: number;
}

export function emptyFaultStats(): FaultStats {
  return {
    errors: 0,
    delays: 0,
    resets: 0,
    drops: 0,
    stalledStreams: 0,
    duplicated: 0,
    reordered: 0,
    marketDataDuplicated: 0,
    marketDataReordered: 0,
  };
}
