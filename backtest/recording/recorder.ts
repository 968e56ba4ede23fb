/**
 * `tradebot run --record <file>`: writes every event the pipeline receives (PipelineOptions.record) as
 * JSON lines after a header (recording version 2): `{"type":"header","version":2,"kind":"recording",
 * "source":"familyA","symbols":[...],"from":<start>,"to":<start>,"instruments":[...]}`, then
 * `{"type":"market"|"orders","time":<epoch ms>,"event":{...}}` in the order received (see event-codec.ts;
 * the order stream's events are what replay needs to take the bot's own quotes and fills out of the
 * recorded market), and on close `{"type":"end","time":<epoch ms>}`: when the session stopped, so a replay
 * runs its timers to the same end. The header's `to` is the start time (the end is not known when it is
 * written). Only the strategy's symbols are recorded (the header's instruments: what a replay decodes with;
 * an execution or a snapshot order in another symbol of the account is left out), and times never go back
 * (a wall clock stepped back, by NTP or a resumed VM, is written as the last time). Writes go through one
 * buffered file stream; `close()` flushes it.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Instrument } from '../../src/domain/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../src/domain/stream-events.ts';
import { encodeHeader } from '../history/format.ts';
import { EventCodec } from './event-codec.ts';

export interface RecordedEvent {
  readonly stream: 'market' | 'orders';
  readonly time: number;
  readonly event: MarketDataEvent | OrderStreamEvent;
}

export interface Recorder {
  record(event: RecordedEvent): void;
  readonly events: number;
  /** Writes the end line (at `endTime`, default the recorder's clock) and flushes the file. */
  close(endTime?: number): Promise<void>;
}

export interface RecorderContext {
  readonly instruments: readonly Instrument[];
  readonly symbols: readonly string[];
  readonly startTime: number;
  /** The session's clock, for the end line (default: the wall clock; a live run's events carry wall time). */
  readonly now?: () => number;
}

export function openRecorder(file: string, context: RecorderContext): Recorder {
  const out = createWriteStream(file, { flags: 'w' });
  // the header's instruments are the ones a replay decodes with: events in other symbols are left out
  const instruments = context.instruments.filter((i) => context.symbols.includes(i.symbol));
  const codec = new EventCodec(instruments);
  const now = context.now ?? (() => Date.now());
  out.write(
    encodeHeader({
      kind: 'recording',
      source: 'familyA',
      symbols: context.symbols,
      from: context.startTime,
      to: context.startTime,
      instruments,
    }),
  );
  let events = 0;
  let last = context.startTime;
  let closed = false;
  let failure: unknown;
  out.on('error', (error) => (failure = error));
  return {
    record({ stream, time, event }) {
      if (closed) return;
      let json;
      if (stream === 'market') {
        const market = event as MarketDataEvent;
        if (market.type === 'book' && !codec.knows(market.symbol)) return;
        json = codec.encodeMarket(market);
      } else {
        const orders = codec.ownOrders(event as OrderStreamEvent);
        if (orders === undefined) return;
        json = codec.encodeOrders(orders);
      }
      // times never go back in a recording (a replay refuses that): a wall clock stepped back is the last time
      last = Math.max(last, time);
      out.write(`${JSON.stringify({ type: stream, time: last, event: json })}\n`);
      events++;
    },
    get events() {
      return events;
    },
    async close(endTime?: number) {
      if (closed) return;
      closed = true;
      out.end(`${JSON.stringify({ type: 'end', time: Math.max(last, endTime ?? now()) })}\n`);
      await once(out, 'close');
      if (failure !== undefined) throw failure;
    },
  };
}
