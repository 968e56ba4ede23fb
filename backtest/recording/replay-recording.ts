/**
 * The replay loop of a recording: the strategy gets what it got live, the same market events at the same
 * times, while its orders are simulated again. Events are taken in the order they were received:
 *  - an order stream event of the live session updates what the live bot had working and had filled
 *    (OwnOrders); it is not published (the replayed bot's own orders are simulated by the venue);
 *  - a book update: what is due runs first (requests, settlements, samples), then the trade the update
 *    reveals (RecordedBook.inferTrade: the quantity at the last price, less the live bot's own aggressive
 *    fills: its own demand) fills the
 *    replayed bot's resting orders by the same rules as a tape, the traded volume less every own fill
 *    feeds the queue estimates, the update without the live bot's own quotes becomes the market model
 *    (what aggressive orders can take; queue estimates are capped by what it shows), and the recorded
 *    BookEvent itself is published to the pipeline as it was received live;
 *  - the feed's connected / disconnected are published as received (books go stale as live);
 *  - a book update of an EXPIRED or TERMINATED instrument with a settlement price (> 0) settles the contract
 *    then (`onSettlement`; replay/settlement.ts), if it has not settled yet;
 *  - the `end` line of a version 2 recording gives the session's end (timers run up to it).
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { isOver } from '../history/format.ts';
import type { ReplayCounts, ReplayProgress } from '../replay/replay-tape.ts';
import type { SimulatedVenue } from '../replay/simulated-venue.ts';
import type { Timeline } from '../replay/timeline.ts';
import type { VolumeWindow } from '../replay/volume-window.ts';
import type { TapeReader } from '../tape/tape-reader.ts';
import type { OwnOrders } from './own-orders.ts';
import type { RecordedBook } from './recorded-book.ts';
import type { RecordingStats } from './recording-reader.ts';

export interface RecordingReplayOptions {
  readonly tape: TapeReader;
  readonly venue: SimulatedVenue;
  readonly timeline: Timeline;
  readonly books: ReadonlyMap<string, RecordedBook>;
  readonly own: OwnOrders;
  readonly volumes: ReadonlyMap<string, VolumeWindow>;
  readonly settled: ReadonlySet<string>;
  readonly stats: RecordingStats;
  /** A recorded settlement (an instrument over, settlementPx > 0) of `symbol` at `time`. */
  readonly onSettlement?: (symbol: string, price: Decimal, time: number) => void;
  readonly onProgress?: (progress: ReplayProgress) => void;
  readonly signal?: AbortSignal;
}

export async function replayRecording(o: RecordingReplayOptions): Promise<ReplayCounts> {
  const counts: ReplayCounts = { events: 0, otherSymbols: 0, afterSettlement: 0, firstTime: undefined, lastTime: undefined };
  const { venue, timeline, own } = o;
  let last = Number.NEGATIVE_INFINITY;
  for await (const batch of o.tape.recordings(o.stats)) {
    for (const item of batch.items) {
      if (item.time < last)
        throw backtestError(
          BacktestErrorCode.OUT_OF_ORDER,
          `${o.tape.file}:${item.line}: an event at ${new Date(item.time).toISOString()} ` +
            `comes after one at ${new Date(last).toISOString()}; a recording is written in the order events were received`,
        );
      last = item.time;
      if (item.kind === 'end') {
        counts.endTime = item.time;
        continue;
      }
      if (item.kind === 'orders') {
        own.apply(item.event);
        continue;
      }
      const event = item.event;
      if (event.type !== 'book') {
        await timeline.advance(item.time);
        venue.publishMarket(event);
        await timeline.drain();
        continue;
      }
      const book = o.books.get(event.symbol);
      if (book === undefined) {
        counts.otherSymbols++;
        continue;
      }
      await timeline.advance(item.time);
      const settlementPx = event.stats?.settlementPx;
      if (isOver(event.state) && settlementPx !== undefined && settlementPx.gt(0)) {
        o.onSettlement?.(event.symbol, settlementPx, item.time);
        await timeline.drain();
      }
      if (o.settled.has(event.symbol)) {
        counts.afterSettlement++;
        continue;
      }
      counts.firstTime ??= item.time;
      counts.lastTime = item.time;
      const trade = book.inferTrade(event);
      if (trade !== undefined) {
        const fills = own.takeFills(event.symbol);
        const market = Math.min(trade.atPrice, trade.qty - fills.aggressive);
        if (market > 0) venue.passiveFills(event.symbol, trade.price, market, trade.buy);
        const others = market - fills.passive;
        if (others > 0) o.volumes.get(event.symbol)?.add(trade.price, others, item.time);
      }
      book.apply(event, item.time, own.restingBySide(event.symbol, event.transactTime, book.deltaOf(event)));
      venue.capQueueAhead(event.symbol, (buy, price) => book.shownAt(buy ? 'bid' : 'ask', price));
      venue.publish(event);
      counts.events++;
      await timeline.drain();
    }
    o.onProgress?.({ bytesRead: o.tape.bytesRead, totalBytes: o.tape.totalBytes, events: counts.events });
    if (o.signal?.aborted === true) break;
  }
  return counts;
}
