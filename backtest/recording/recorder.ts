/**
 * `tradebot run --record <file>`: writes every event the pipeline receives (PipelineOptions.record) as
 * JSON lines after a header: `{"type":"header","version":1,"kind":"recording","source":"familyA",
 * "symbols":[...],"from":<start>,"to":<start>,"instruments":[...]}`, then
 * `{"type":"market"|"orders","time":<epoch ms>,"event":{...}}` (see event-codec.ts). The header's `to`
 * is the start time (the end is not known when it is written); replay runs to the last event. Writes go
 * through one buffered file stream; `close()` flushes it.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Instrument } from '../../src/domain/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../src/exchange/gateway/stream-events.ts';
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
  close(): Promise<void>;
}

export interface RecorderContext {
  readonly instruments: readonly Instrument[];
  readonly symbols: readonly string[];
  readonly startTime: number;
}

export function openRecorder(file: string, context: RecorderContext): Recorder {
  const out = createWriteStream(file, { flags: 'w' });
  const codec = new EventCodec(context.instruments);
  out.write(encodeHeader({ kind: 'recording', source: 'familyA', symbols: context.symbols, from: context.startTime, to: context.startTime, instruments: context.instruments.filter((i) => context.symbols.includes(i.symbol)) }));
  let events = 0;
  let failure: unknown;
  out.on('error', (error) => (failure = error));
  return {
    record({ stream, time, event }) {
      const json = stream === 'market' ? codec.encodeMarket(event as MarketDataEvent) : codec.encodeOrders(event as OrderStreamEvent);
      out.write(`${JSON.stringify({ type: stream, time, event: json })}\n`);
      events++;
    },
    get events() {
      return events;
    },
    async close() {
      out.end();
      await once(out, 'close');
      if (failure !== undefined) throw failure;
    },
  };
}
