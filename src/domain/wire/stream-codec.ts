/**
 * The codec of a stream line: `{"result": {<variant>: {...}, ...meta}}` or `{"error": {...}}`.
 * The domain form is one flat object discriminated by `kind` (the variant's key, or 'error'), with the
 * variant body's fields and the meta fields (session id, processed time) spread into it. If `error` is
 * present it wins. A `result` without any known variant is a WIRE_INVALID_FIELD error.
 */
import { invalidField } from '../errors.ts';
import type { GatewayErrorBody, StreamError, StreamErrorMessage } from '../types/stream.ts';
import { type MessageCodec, type RootCodec, isPlainObject, message, pathString } from './codec.ts';
import { errorDetails, int32, json, list, str } from './fields.ts';

export const streamErrorCodec = message<StreamError>({
  name: 'StreamError',
  fields: { code: int32(), message: str(), details: list(json()) },
});

export const gatewayErrorBodyCodec = message<GatewayErrorBody>({
  name: 'GatewayErrorBody',
  fields: { code: int32(), message: str(), details: errorDetails() },
});

/** A message with no fields (heartbeat). */
export const emptyCodec = message<object>({ name: 'Empty', fields: {} });

export type StreamMessage<V extends Record<string, object>, M extends object> =
  { [K in keyof V & string]: { readonly kind: K } & V[K] & M }[keyof V & string] | StreamErrorMessage;

export interface StreamSpec<V extends Record<string, object>, M extends object> {
  readonly name: string;
  readonly variants: { readonly [K in keyof V]: MessageCodec<V[K]> };
  readonly meta: MessageCodec<M>;
}

export function streamCodec<V extends Record<string, object>, M extends object>(spec: StreamSpec<V, M>): RootCodec<StreamMessage<V, M>> {
  const kinds = Object.keys(spec.variants) as (keyof V & string)[];
  const variant = (kind: string): MessageCodec<object> => spec.variants[kind] as unknown as MessageCodec<object>;
  return {
    usesScope: false,
    decodeAt(raw, here, ctx, scope) {
      if (!isPlainObject(raw)) throw invalidField(pathString(here), `a ${spec.name} line {"result": ...} or {"error": ...}`, raw);
      if (raw.error !== undefined && raw.error !== null) {
        const error = streamErrorCodec.decodeAt(raw.error, { parent: here, seg: 'error' }, ctx, scope);
        return { kind: 'error', error };
      }
      const result = raw.result;
      const resultPath = { parent: here, seg: 'result' };
      if (!isPlainObject(result)) throw invalidField(pathString(resultPath), 'an object', result);
      for (const kind of kinds) {
        const body = result[kind];
        if (body === undefined || body === null) continue;
        const decoded = variant(kind).decodeAt(body, { parent: resultPath, seg: kind }, ctx, scope);
        const meta = spec.meta.decodeAt(result, resultPath, ctx, scope);
        return { kind, ...decoded, ...meta } as StreamMessage<V, M>;
      }
      throw invalidField(pathString(resultPath), `an object with one of ${kinds.join(', ')}`, result);
    },
    encodeAt(value, here, ctx, scope) {
      if (value.kind === 'error') {
        const error = (value as StreamErrorMessage).error;
        return { error: streamErrorCodec.encodeAt(error, { parent: here, seg: 'error' }, ctx, scope) };
      }
      const resultPath = { parent: here, seg: 'result' };
      const body = variant(value.kind).encodeAt(value, { parent: resultPath, seg: value.kind }, ctx, scope);
      const meta = spec.meta.encodeAt(value as unknown as M, resultPath, ctx, scope);
      return { result: { [value.kind]: body, ...meta } };
    },
  };
}
