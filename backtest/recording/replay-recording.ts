/**
 * The replay loop of a recording: its market data drives the book directly. For each recorded book
 * update, in time order: what is due runs first (requests, settlements, samples), then the trade the
 * update reveals (RecordedBook.inferTrade) fills the bot's resting orders by the same rules as a tape,
 * the update becomes the market model (what aggressive orders can take), and the recorded BookEvent is
 * published to the pipeline as it was received live.
 */
import { BacktestErrorCode, backtestError } from '../errors.ts';
import type { ReplayCounts, ReplayProgress } from '../replay/replay-tape.ts';
import type { SimulatedVenue } from '../replay/simulated-venue.ts';
import type { Timeline } from '../replay/timeline.ts';
import type { VolumeWindow } from '../replay/volume-window.ts';
import type { TapeReader } from '../tape/tape-reader.ts';
import type { RecordedBook } from './recorded-book.ts';
import type { RecordingStats } from './recording-reader.ts';

export interface RecordingReplayOptions {
  readonly tape: TapeReader;
  readonly venue: SimulatedVenue;
  readonly timeline: Timeline;
  readonly books: ReadonlyMap<string, RecordedBook>;
  readonly volumes: ReadonlyMap<string, VolumeWindow>;
  readonly settled: ReadonlySet<string>;
  readonly stats: RecordingStats;
  readonly onProgress?: (progress: ReplayProgress) => void;
  readonly signal?: AbortSignal;
}

export async function replayRecording(o: RecordingReplayOptions): Promise<ReplayCounts> {
  const counts: ReplayCounts = { events: 0, otherSymbols: 0, afterSettlement: 0, firstTime: undefined, lastTime: undefined };
  const { venue, timeline } = o;
  let last = Number.NEGATIVE_INFINITY;
  for await (const batch of o.tape.recordings(o.stats)) {
    for (const { time, event, line } of batch.events) {
      const book = o.books.get(event.symbol);
      if (book === undefined) {
        counts.otherSymbols++;
        continue;
      }
      if (time < last) throw backtestError(BacktestErrorCode.OUT_OF_ORDER, `${o.tape.file}:${line}: an event at ${new Date(time).toISOString()} comes after one at ${new Date(last).toISOString()}`);
      last = time;
      await timeline.advance(time);
      if (o.settled.has(event.symbol)) {
        counts.afterSettlement++;
        continue;
      }
      counts.firstTime ??= time;
      counts.lastTime = time;
      const trade = book.inferTrade(event);
      if (trade !== undefined) {
        venue.passiveFills(event.symbol, trade.price, trade.qty, trade.buy);
        o.volumes.get(event.symbol)?.add(trade.price, trade.qty, time);
      }
      book.apply(event, time);
      venue.publish(event);
      counts.events++;
      await timeline.drain();
    }
    o.onProgress?.({ bytesRead: o.tape.bytesRead, totalBytes: o.tape.totalBytes, events: counts.events });
    if (o.signal?.aborted === true) break;
  }
  return counts;
}
