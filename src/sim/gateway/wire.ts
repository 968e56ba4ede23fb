/**
 * Decoding and encoding helpers for the simulator's gateway routes: request bodies are decoded with the
 * domain's snake_case codecs (a decoding failure is INVALID_ARGUMENT naming the field), replies are
 * encoded with them, and engine views become domain objects on the way out.
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
      if (error.code === 'SCALE_UNKNOWN_SYMBOL') throw invalidArgument(`unknown symbol: ${error.message}`);
      throw invalidArgument(error.message);
    }
    throw error;
  }
}

export { gateway };
