/**
 * google.protobuf.Struct <-> plain JSON objects. The gateway's JSON carries a few opaque objects (an
 * order's `context.any_context` and `context.validation_contexts`, a trade's `metadata`); on gRPC they
 * travel as Struct, whose loaded JS form is `{fields: {key: {stringValue: ...}}}`. These helpers convert
 * at exactly those paths (`fixOrder`, `fixExecution`, `fixTrade`), in place on objects the caller owns
 * (fresh encoder output or freshly deserialized messages), so the gateway codecs see plain JSON.
 */
import { isPlainObject } from '../../../domain/wire/codec.ts';

type Json = Record<string, unknown>;

function toValue(value: unknown): Json {
  if (value === null || value === undefined) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(toValue) } };
  if (isPlainObject(value)) return { structValue: toStruct(value) };
  return { stringValue: String(value) };
}

/** A plain JSON object as a Struct message object. */
export function toStruct(json: Json): Json {
  const fields: Json = {};
  for (const [key, value] of Object.entries(json)) fields[key] = toValue(value);
  return { fields };
}

function fromValue(raw: unknown): unknown {
  if (!isPlainObject(raw)) return null;
  if (typeof raw['stringValue'] === 'string') return raw['stringValue'];
  if (typeof raw['numberValue'] === 'number') return raw['numberValue'];
  if (typeof raw['boolValue'] === 'boolean') return raw['boolValue'];
  if (raw['structValue'] !== undefined) return fromStruct(raw['structValue']);
  if (raw['listValue'] !== undefined) {
    const values = isPlainObject(raw['listValue']) ? raw['listValue']['values'] : undefined;
    return Array.isArray(values) ? values.map(fromValue) : [];
  }
  return null;
}

/** A Struct message object (anything else reads as `{}`) as a plain JSON object. */
export function fromStruct(raw: unknown): Json {
  const out: Json = {};
  const fields = isPlainObject(raw) ? raw['fields'] : undefined;
  if (!isPlainObject(fields)) return out;
  for (const [key, value] of Object.entries(fields)) out[key] = fromValue(value);
  return out;
}

export type Direction = 'toProto' | 'fromProto';

function convert(value: unknown, direction: Direction): unknown {
  if (direction === 'fromProto') return fromStruct(value);
  return isPlainObject(value) ? toStruct(value) : value;
}

/** Converts an order's Struct fields (context.any_context, context.validation_contexts[]) in place. */
export function fixOrder(order: unknown, direction: Direction): void {
  if (!isPlainObject(order)) return;
  const context = order['context'];
  if (!isPlainObject(context)) return;
  if (context['any_context'] !== undefined) context['any_context'] = convert(context['any_context'], direction);
  const list = context['validation_contexts'];
  if (Array.isArray(list)) context['validation_contexts'] = list.map((v) => convert(v, direction));
}

export function fixExecution(execution: unknown, direction: Direction): void {
  if (isPlainObject(execution)) fixOrder(execution['order'], direction);
}

export function fixTrade(trade: unknown, direction: Direction): void {
  if (!isPlainObject(trade)) return;
  fixExecution(trade['aggressor'], direction);
  fixExecution(trade['passive'], direction);
  if (trade['metadata'] !== undefined) trade['metadata'] = convert(trade['metadata'], direction);
}

/** Applies `fix` to each element of `json[key]` when it is an array. */
export function fixEach(json: unknown, key: string, fix: (item: unknown, direction: Direction) => void, direction: Direction): void {
  if (!isPlainObject(json)) return;
  const list = json[key];
  if (Array.isArray(list)) for (const item of list) fix(item, direction);
}
