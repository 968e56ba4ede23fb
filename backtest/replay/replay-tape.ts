/**
 * The replay loop of a trade tape: reads the history in batches and, trade by trade in time order, lets
 * the timeline run what is due, then hands the trade to the venue (passive fills, synthetic book, book
 * event when the top moved). The hot path is synchronous and looks nothing up by symbol (one venue lane
 * per instrument index); it awaits only when something is due or a promise settled, and between batches.
 */
import { BacktestErrorCode, backtestError } from '../errors.ts';
import type { TapeReader } from '../tape/tape-reader.ts';
import type { SimulatedVenue } from './simulated-venue.ts';
import type { TapeBook } from './tape-book.ts';
import type { Timeline } from './timeline.ts';
import type { VolumeWindow } from './volume-window.ts';

export interface ReplayProgress {
  readonly bytesRead: number;
  readonly totalBytes: number;
  readonly events: number;
}

export interface TapeReplayOptions {
  readonly tape: TapeReader;
  readonly venue: SimulatedVenue;
  readonly timeline: Timeline;
  readonly books: ReadonlyMap<string, TapeBook>;
  readonly volumes: ReadonlyMap<string, VolumeWindow>;
  /** Symbols whose contract has settled: their later trades are ignored. */
  readonly settled: ReadonlySet<string>;
  readonly onProgress?: (progress: ReplayProgress) => void;
  readonly signal?: AbortSignal;
}

export interface ReplayCounts {
  events: number;
  otherSymbols: number;
  afterSettlement: number;
  firstTime: number | undefined;
  lastTime: number | undefined;
  /** When the data says it ends (a recording's `end` line), if it says. */
  endTime?: number;
}

export async function replayTape(o: TapeReplayOptions): Promise<ReplayCounts> {
  const counts: ReplayCounts = { events: 0, otherSymbols: 0, afterSettlement: 0, firstTime: undefined, lastTime: undefined };
  const symbols = o.tape.symbols;
  const { venue, timeline, settled } = o;
  // per instrument index: the venue's lane (undefined: a symbol the strategy does not trade) and volumes
  const lanes = symbols.map((s) => {
    const book = o.books.get(s);
    return book === undefined ? undefined : venue.lane(s, book);
  });
  const volumes = symbols.map((s) => o.volumes.get(s));
  let last = Number.NEGATIVE_INFINITY;
  let events = 0;
  let otherSymbols = 0;
  let afterSettlement = 0;
  let lastEvent: number | undefined;
  for await (const batch of o.tape.batches()) {
    const { sym, price, qty, buy, time, line } = batch;
    for (let i = 0; i < batch.count; i++) {
      const k = sym[i] as number;
      const lane = lanes[k];
      if (lane === undefined) {
        otherSymbols++;
        continue;
      }
      const t = time[i] as number;
      if (t !== last) {
        if (t < last)
          throw backtestError(
            BacktestErrorCode.OUT_OF_ORDER,
            `${o.tape.file}:${line[i]}: a trade at ${new Date(t).toISOString()} comes after one at ${new Date(last).toISOString()}; ` +
              'the tape must be in time order',
          );
        last = t;
        // a new timestamp: the books of the last one are complete
        if (!Number.isNaN(venue.pendingBookTime)) {
          venue.flushBooks();
          if (venue.pendingContinuations) await timeline.drain();
        }
      }
      if (!timeline.idleUntil(t)) {
        // timeline.advance(t), without its async frame: the continuations are drained after each item
        while (timeline.runNextDue(t)) if (venue.pendingContinuations) await timeline.drain();
      }
      timeline.advanceClock(t);
      if (venue.pendingContinuations) await timeline.drain();
      if (settled.size > 0 && settled.has(lane.symbol)) {
        afterSettlement++;
        continue;
      }
      counts.firstTime ??= t;
      lastEvent = t;
      const p = price[i] as number;
      const q = qty[i] as number;
      venue.trade(lane, p, q, buy[i] === 1, t);
      volumes[k]?.add(p, q, t);
      events++;
      if (venue.pendingContinuations) await timeline.drain();
    }
    counts.lastTime = lastEvent;
    counts.events = events;
    counts.otherSymbols = otherSymbols;
    counts.afterSettlement = afterSettlement;
    o.onProgress?.({ bytesRead: o.tape.bytesRead, totalBytes: o.tape.totalBytes, events });
    if (o.signal?.aborted === true) break;
  }
  venue.flushBooks();
  await timeline.drain();
  return counts;
}
