/**
 * Fuzzing the client's stream path end to end, without a network: NDJSON bodies made of valid stream
 * messages, mutated ones, truncated JSON, random text and error lines, cut into random chunks (also inside
 * multi-byte characters), fed through the gateway client's real stream machinery (`GatewayStreams`: the
 * NDJSON splitter, the line parser, the order / market data / instrument state decoders, the resilient
 * runner) with a fake opener. Until the first disconnection every event is a known, typed one; a line that
 * does not decode becomes exactly one `invalidMessage` carrying GATEWAY_BAD_RESPONSE (counted against an
 * independent decode of the same lines); a non-JSON or error line ends the connection with a typed error.
 * The position stream (no gateway Observable) goes through the splitter, `streamNdjson` and its codec.
 */
import fc from 'fast-check';
import { asyncScheduler, firstValueFrom, takeWhile, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { DomainErrorCode, Decimal, gateway, type WireCodec } from '../../../src/domain/index.ts';
import { isTradebotError } from '../../../src/errors.ts';
import { GatewayErrorCode, GatewayStreams, instrumentCatalog, type StreamRunnerDeps } from '../../../src/exchange/gateway/index.ts';
import { streamNdjson, type StreamOpener } from '../../../src/exchange/transport/index.ts';
import { applyMutations, hostileJson, hostileString, mutation, toJsonText, type Json } from '../../sim/fuzz/helpers/arbitraries.ts';
import { fuzzRuns } from '../../sim/fuzz/helpers/fuzz-sim.ts';
import { SCALES, familySamples } from '../../domain/fixtures.ts';

type StreamKind = 'order' | 'market' | 'state' | 'position';

const CODECS: Record<StreamKind, Pick<WireCodec<unknown>, 'decode'>> = {
  order: gateway.orderStream,
  market: gateway.marketDataStream,
  state: gateway.instrumentStateStream,
  position: gateway.positionStream,
};

const meta = { sessionId: 's-1', processedSentTime: undefined };
const SAMPLES: Record<StreamKind, Json[]> = {
  order: [
    gateway.orderStream.encode(familySamples.orderStream, SCALES),
    gateway.orderStream.encode({ kind: 'snapshot', orders: [familySamples.order], ...meta }, SCALES),
    gateway.orderStream.encode({ kind: 'heartbeat', ...meta }, SCALES),
  ] as Json[],
  market: [
    gateway.marketDataStream.encode(familySamples.marketDataStream, SCALES),
    gateway.marketDataStream.encode({ kind: 'heartbeat' }),
  ] as Json[],
  state: [
    gateway.instrumentStateStream.encode(familySamples.instrumentStateStream),
    gateway.instrumentStateStream.encode({ kind: 'heartbeat' }),
  ] as Json[],
  position: [
    gateway.positionStream.encode(familySamples.positionStream, SCALES),
    gateway.positionStream.encode({ kind: 'heartbeat', ...meta }),
  ] as Json[],
};

/** One line of a fuzzed body, as text (never containing a newline). */
function lineArb(kind: StreamKind): fc.Arbitrary<string> {
  const samples = SAMPLES[kind];
  const sample = fc.nat({ max: samples.length - 1 }).map((i) => samples[i] as Json);
  return fc
    .oneof(
      { weight: 4, arbitrary: sample.map((s) => JSON.stringify(s)) },
      {
        weight: 6,
        arbitrary: fc.tuple(sample, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([s, m]) => toJsonText(applyMutations(s, m))),
      },
      { weight: 1, arbitrary: fc.tuple(sample, fc.nat()).map(([s, cut]) => JSON.stringify(s).slice(0, cut % JSON.stringify(s).length)) },
      { weight: 1, arbitrary: hostileString },
      { weight: 1, arbitrary: hostileJson.map((j) => toJsonText(j)) },
      { weight: 1, arbitrary: hostileJson.map((error) => toJsonText({ error })) },
    )
    .map((line) => line.replace(/[\r\n]/g, ' '));
}

/** The body's lines as the splitter will see them (lone surrogates become U+FFFD on the way). */
const asSent = (line: string) => new TextDecoder().decode(new TextEncoder().encode(line));

interface Expectation {
  /** Lines up to the first one that ends the connection. */
  invalid: number;
  terminal: 'none' | 'badLine' | 'errorLine';
}

/** What the client must do with these lines, decided independently of its code path. */
function expectationOf(kind: StreamKind, lines: readonly string[]): Expectation {
  let invalid = 0;
  for (const raw of lines) {
    const line = asSent(raw);
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return { invalid, terminal: 'badLine' };
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const error = (parsed as Record<string, unknown>)['error'];
      if (error !== undefined && error !== null) return { invalid, terminal: 'errorLine' };
    }
    try {
      CODECS[kind].decode(parsed, SCALES);
    } catch {
      invalid += 1;
    }
  }
  return { invalid, terminal: 'none' };
}

function chunked(text: string, cuts: readonly number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  return out;
}

/** Serves `chunks` once; later connections never open (the test stops at the first disconnection). */
function fakeOpener(chunks: readonly Uint8Array[]): StreamOpener {
  let calls = 0;
  return {
    async openStream(request) {
      calls += 1;
      if (calls > 1) return new Promise(() => undefined);
      return {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        context: { method: 'POST', path: request.path, origin: 'http://fake.invalid' },
        body: {
          async *[Symbol.asyncIterator]() {
            for (const chunk of chunks) yield chunk;
          },
          destroy: () => undefined,
        },
      };
    },
  };
}

function streamsOver(chunks: readonly Uint8Array[]): GatewayStreams {
  const deps: StreamRunnerDeps = {
    opener: fakeOpener(chunks),
    tokens: { accessToken: async () => 'token', recoverFromUnauthorized: async () => 'token' },
    acquire: async () => undefined,
    scheduler: asyncScheduler,
    random: () => 0.5,
    options: {},
    logger: undefined,
  };
  return new GatewayStreams(deps, instrumentCatalog(SCALES));
}

function gatewayStream(kind: Exclude<StreamKind, 'position'>, streams: GatewayStreams): Observable<{ type: string }> {
  if (kind === 'order') return streams.orderUpdates$();
  if (kind === 'market') return streams.marketData$({ symbols: ['EVT-A', 'EVT-B'] });
  return streams.instrumentStates$();
}

const KNOWN = new Set([
  'connected',
  'disconnected',
  'heartbeat',
  'invalidMessage',
  'snapshot',
  'execution',
  'cancelReject',
  'book',
  'state',
]);

function checkEvent(event: Record<string, unknown>): void {
  expect(KNOWN.has(String(event['type'])), `unknown event ${String(event['type'])}`).toBe(true);
  if (event['type'] === 'invalidMessage') {
    const error = event['error'];
    expect(isTradebotError(error) && error.code === GatewayErrorCode.BadResponse, `invalidMessage carries ${String(error)}`).toBe(true);
  }
  if (event['type'] === 'disconnected' && event['error'] !== undefined)
    expect(isTradebotError(event['error']), String(event['error'])).toBe(true);
  if (event['type'] === 'execution') {
    const order = (event['execution'] as { order: { orderQty: unknown; symbol: unknown } }).order;
    expect(Decimal.isDecimal(order.orderQty) && typeof order.symbol === 'string').toBe(true);
  }
  if (event['type'] === 'book') {
    for (const level of [...(event['bids'] as { px: unknown }[]), ...(event['offers'] as { px: unknown }[])])
      expect(Decimal.isDecimal(level.px)).toBe(true);
  }
}

const body = (kind: StreamKind) =>
  fc.record({
    lines: fc.array(lineArb(kind), { minLength: 1, maxLength: 12 }),
    crlf: fc.boolean(),
    trailingNewline: fc.boolean(),
    cuts: fc.array(fc.nat(), { maxLength: 12 }),
  });

describe.each(['order', 'market', 'state'] as const)('the %s stream under bad lines', (kind) => {
  it('emits only typed events, one invalidMessage per undecodable line, and ends bad bodies with typed errors', async () => {
    await fc.assert(
      fc.asyncProperty(body(kind), async ({ lines, crlf, trailingNewline, cuts }) => {
        const text = lines.join(crlf ? '\r\n' : '\n') + (trailingNewline ? '\n' : '');
        const expected = expectationOf(kind, lines);
        let events: Record<string, unknown>[];
        try {
          events = (await firstValueFrom(
            gatewayStream(kind, streamsOver(chunked(text, cuts))).pipe(
              takeWhile((e) => e.type !== 'disconnected', true),
              toArray(),
            ),
          )) as unknown as Record<string, unknown>[];
        } catch (error) {
          // Fatal stream errors (an error line with a rejection / permission status) end the Observable.
          expect(isTradebotError(error), `the stream failed with ${String(error)}`).toBe(true);
          expect(expected.terminal).toBe('errorLine');
          return;
        }
        for (const event of events) checkEvent(event);
        expect(events.filter((e) => e['type'] === 'invalidMessage').length, `lines: ${JSON.stringify(lines).slice(0, 500)}`).toBe(
          expected.invalid,
        );
        const last = events.at(-1);
        expect(last?.['type']).toBe('disconnected');
        if (expected.terminal === 'badLine') expect((last?.['error'] as { code?: string } | undefined)?.code).toBe('STREAM_BAD_LINE');
        if (expected.terminal === 'none') expect(last?.['error']).toBeUndefined();
      }),
      { numRuns: fuzzRuns(150) },
    );
  });
});

describe('the position stream under bad lines', () => {
  it('splits, parses and decodes every line to a value or a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(body('position'), async ({ lines, crlf, trailingNewline, cuts }) => {
        const text = lines.join(crlf ? '\r\n' : '\n') + (trailingNewline ? '\n' : '');
        const values: unknown[] = [];
        let failure: unknown;
        await new Promise<void>((resolve) => {
          streamNdjson(fakeOpener(chunked(text, cuts)), { path: '/api/v1beta1/create_position_subscription' }).subscribe({
            next: (line) => values.push(line),
            error: (error: unknown) => {
              failure = error;
              resolve();
            },
            complete: resolve,
          });
        });
        if (failure !== undefined) expect(isTradebotError(failure), String(failure)).toBe(true);
        for (const line of values) {
          try {
            gateway.positionStream.decode(line, SCALES);
          } catch (error) {
            expect(isTradebotError(error) && Object.values(DomainErrorCode).includes(error.code as DomainErrorCode), String(error)).toBe(
              true,
            );
          }
        }
      }),
      { numRuns: fuzzRuns(150) },
    );
  });
});
