/**
 * The client's decoding of market data stream responses, from their bytes: a book update through the fast
 * path (market-data-reader.ts reads the bytes straight into the typed message), anything else, and
 * anything the fast path has a doubt about, through the proto-loader deserializer and the table codec
 * (`grpcCodecs.marketDataStream`), which gives the same value or the validation error (GRPC_UNDECODABLE_MESSAGE
 * for bytes that are not a message). A response that is already deserialized goes to the codec.
 */
import type { MarketDataMessage, ScaleLookup, ScaleSource } from '../../../domain/index.ts';
import { type Payload, grpcCodecs } from './codecs.ts';
import { exchangeProtocol } from './loader.ts';
import { methodRef } from './package.ts';
import { readMarketDataUpdate } from './market-data-reader.ts';

const MARKET_DATA = methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription');

/** A market data response (its bytes, or the deserialized message) as a typed message; throws like the codec. */
export function decodeMarketDataResponse(raw: unknown, scales: ScaleSource, lookup: ScaleLookup): Payload<MarketDataMessage> {
  if (!Buffer.isBuffer(raw)) return grpcCodecs.marketDataStream.decode(raw, scales);
  return (
    readMarketDataUpdate(raw, lookup) ??
    grpcCodecs.marketDataStream.decode(exchangeProtocol().method(MARKET_DATA).deserializeResponse(raw), scales)
  );
}
