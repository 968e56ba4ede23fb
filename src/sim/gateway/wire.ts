/**
 * Decoding and encoding helpers for the simulator's gateway routes: request bodies are decoded with the
 * domain's snake_case codecs (a decoding failure is INVALID_ARGUMENT naming the field; an unknown symbol
 * names the request's `symbol`), replies are encoded with them, and engine views become domain objects on
 * the way out.
 */
import { gateway, type WireCodec } from '../../domain/wire/families.ts';
import { isTradebotError } from '../../errors.ts';
import { invalidArgument } from '../http/errors.ts';
import type { RequestContext } from '../http/router.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import type { InstrumentScales } from '../../domain/scales.ts';

export function scaleLookup(core: ExchangeCore): (symbol: string) => InstrumentScales | undefined {
  return (symbol) => core.instrument(symbol)?.scales;
}

export async function decodeBody<T>(context: RequestContext, codec: WireCodec<T>, core: ExchangeCore): Promise<T> {
  const body = await context.body();
  try {
    return codec.decode(body, scaleLookup(core));
  } catch (error) {
    if (isTradebotError(error)) {
      if (error.code === 'SCALE_UNKNOWN_SYMBOL') throw invalidArgument(unknownSymbolMessage(error.details));
      throw invalidArgument(error.message);
    }
    throw error;
  }
}

/**
 * The message for a scaled field whose request names no known symbol: it names the `symbol` field of the
 * same request (`requests[1].symbol`), not the scaled field (`order_qty`) whose decoding noticed it.
 */
function unknownSymbolMessage(details: Record<string, unknown> | undefined): string {
  const fieldPath = typeof details?.['path'] === 'string' ? details['path'] : '';
  const symbol = typeof details?.['symbol'] === 'string' ? details['symbol'] : '';
  const cut = fieldPath.lastIndexOf('.');
  const at = cut < 0 ? 'symbol' : `${fieldPath.slice(0, cut)}.symbol`;
  return symbol === ''
    ? `${at}: is required`
    : `${at}: unknown symbol ${JSON.stringify(symbol)}; use a symbol of the exchange's instruments`;
}

export { gateway };
