/**
 * The table-driven codec core shared by every resource and both wire families.
 *
 * A resource is described once, by a `MessageSpec`: a table mapping each domain field (camelCase) to a
 * `FieldCodec` that knows how to decode/encode that field's wire value. The wire key is the domain name
 * for family A (camel) and its mechanical snake_case form for the gateway (`clordId` -> `clord_id`),
 * unless the field codec overrides one of them. The table's type is checked against the domain interface,
 * so a field cannot be forgotten or mistyped.
 *
 * Scaled prices and quantities need the instrument's scales: a spec's `scope` rule says where they come
 * from (the symbol at some path, or the message's own scale fields); nested messages without a rule use
 * their parent's scope. Decoding never allocates path strings unless it fails: paths are linked nodes.
 * Inbound unknown fields are ignored (forward compatibility); encoders omit proto3 default values unless
 * `emitDefaults` is set.
 */
import type { TradebotError } from '../../errors.ts';
import { DomainErrorCode, domainError, invalidField } from '../errors.ts';
import { type InstrumentScales, instrumentScales, tryParseRawInt, tryScale } from '../scales.ts';

export type Naming = 'snake' | 'camel';

export interface PathNode {
  readonly parent: Path;
  readonly seg: string | number;
}
export type Path = PathNode | undefined;

/** `executions[0].order.price`; the root is `<root>`. */
export function pathString(parent: Path, seg?: string | number): string {
  const segs: (string | number)[] = seg === undefined ? [] : [seg];
  for (let node = parent; node !== undefined; node = node.parent) segs.push(node.seg);
  let out = '';
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i] as string | number;
    out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  }
  return out === '' ? '<root>' : out;
}

export interface Ctx {
  readonly naming: Naming;
  readonly lookup: (symbol: string) => InstrumentScales | undefined;
  readonly emitDefaults: boolean;
}

/** The scales in effect, or (a string) the symbol for which none are known. */
export type Scope = InstrumentScales | string;

export interface FieldCodec<T> {
  readonly decode: (raw: unknown, parent: Path, key: string | number, ctx: Ctx, scope: Scope) => T;
  /** Returns the wire value; undefined omits the key. */
  readonly encode: (value: T, parent: Path, key: string | number, ctx: Ctx, scope: Scope) => unknown;
  /** proto3 default (omitted when encoding unless emitDefaults). */
  readonly isDefault: (value: T) => boolean;
  /** True when the codec reads instrument scales from its scope. */
  readonly usesScope: boolean;
  readonly keys?: Partial<Record<Naming, string>>;
}

/** One codec per domain field, checked against the domain interface. */
export type Table<T> = { readonly [K in keyof T]-?: FieldCodec<T[K]> };

export type ScopeRule =
  /** Scales of the symbol found at this domain path; `echo` names scale fields the wire repeats. */
  | { readonly symbolAt: readonly string[]; readonly echo?: { readonly price: string; readonly qty: string } }
  /** The message's own scale fields (domain names), as on an Instrument. */
  | { readonly self: { readonly price: string; readonly qty: string } };

export interface MessageSpec<T> {
  readonly name: string;
  readonly fields: Table<T>;
  readonly scope?: ScopeRule;
  /** Fixed key naming whatever the family (auth and KYC payloads). */
  readonly naming?: Naming;
}

/** A codec for a whole payload (a message or a stream union). */
export interface RootCodec<T> {
  readonly decodeAt: (raw: unknown, here: Path, ctx: Ctx, scope: Scope) => T;
  readonly encodeAt: (value: T, here: Path, ctx: Ctx, scope: Scope) => Record<string, unknown>;
  readonly usesScope: boolean;
}

export type MessageCodec<T> = RootCodec<T> & { readonly name: string };

interface Compiled {
  readonly name: string;
  readonly key: string;
  readonly codec: FieldCodec<unknown>;
}

export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function wireKey(name: string, naming: Naming, keys?: Partial<Record<Naming, string>>): string {
  return keys?.[naming] ?? (naming === 'snake' ? camelToSnake(name) : name);
}

/** proto3 JSON: null means absent. */
export const absent = (raw: unknown): raw is undefined | null => raw === undefined || raw === null;

export function isPlainObject(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

export function noScales(path: string, scope: string): TradebotError {
  const what =
    scope === ''
      ? 'no instrument scales in scope (pass the instrument scales)'
      : `no instrument scales for symbol "${scope}" (load reference data first)`;
  return domainError(DomainErrorCode.SCALE_UNKNOWN_SYMBOL, `${path}: ${what}`, { path, symbol: scope });
}

function compile(fields: Table<object>, naming: Naming): Compiled[] {
  return Object.entries(fields as Record<string, FieldCodec<unknown>>).map(([name, codec]) => ({
    name,
    key: wireKey(name, naming, codec.keys),
    codec,
  }));
}

function scaleEcho(raw: unknown, path: () => string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const n = tryParseRawInt(raw);
  if (n === 0) return undefined;
  const scale = tryScale(raw);
  if (scale === undefined) throw invalidField(path(), 'a scale: 0 or a power of ten', raw);
  return scale;
}

/** Builds the codec of a message type from its spec. */
export function message<T extends object>(spec: MessageSpec<T>): MessageCodec<T> {
  const byNaming: Record<Naming, Compiled[]> = {
    snake: compile(spec.fields, 'snake'),
    camel: compile(spec.fields, 'camel'),
  };
  const anyScaled = byNaming.camel.some((f) => f.codec.usesScope);
  const rule = spec.scope;
  const keyOf = (name: string, naming: Naming): string => byNaming[naming].find((f) => f.name === name)?.key ?? wireKey(name, naming);

  function decodeScope(obj: Record<string, unknown>, here: Path, naming: Naming, ctx: Ctx, outer: Scope): Scope {
    if (rule === undefined || !anyScaled) return outer;
    if ('self' in rule) {
      const pk = keyOf(rule.self.price, naming);
      const qk = keyOf(rule.self.qty, naming);
      const price = tryScale(obj[pk]);
      if (price === undefined) throw invalidField(pathString(here, pk), 'a scale: 0 or a power of ten', obj[pk]);
      const qty = tryScale(obj[qk]);
      if (qty === undefined) throw invalidField(pathString(here, qk), 'a scale: 0 or a power of ten', obj[qk]);
      return instrumentScales(price, qty);
    }
    let at: unknown = obj;
    for (const seg of rule.symbolAt) at = isPlainObject(at) ? at[wireKey(seg, naming)] : undefined;
    const symbol = typeof at === 'string' ? at : '';
    const known = ctx.lookup(symbol);
    if (rule.echo === undefined) return known ?? symbol;
    const pk = wireKey(rule.echo.price, naming);
    const qk = wireKey(rule.echo.qty, naming);
    const price = scaleEcho(obj[pk], () => pathString(here, pk));
    const qty = scaleEcho(obj[qk], () => pathString(here, qk));
    if (known === undefined) return price === undefined && qty === undefined ? symbol : instrumentScales(price ?? 1, qty ?? 1);
    if (price !== undefined && price !== known.priceScale) {
      throw invalidField(pathString(here, pk), `"${known.priceScale}" (the price scale of ${symbol})`, obj[pk]);
    }
    if (qty !== undefined && qty !== known.qtyScale) {
      throw invalidField(pathString(here, qk), `"${known.qtyScale}" (the quantity scale of ${symbol})`, obj[qk]);
    }
    return known;
  }

  function encodeScope(value: Record<string, unknown>, ctx: Ctx, outer: Scope): Scope {
    if (rule === undefined) return outer;
    if ('self' in rule) {
      return instrumentScales(value[rule.self.price] as number, value[rule.self.qty] as number);
    }
    let at: unknown = value;
    for (const seg of rule.symbolAt) at = isPlainObject(at) ? at[seg] : undefined;
    const symbol = typeof at === 'string' ? at : '';
    return ctx.lookup(symbol) ?? symbol;
  }

  return {
    name: spec.name,
    usesScope: rule === undefined && anyScaled,
    decodeAt(raw, here, outerCtx, outer) {
      if (!isPlainObject(raw)) throw invalidField(pathString(here), `an object (${spec.name})`, raw);
      const ctx = spec.naming === undefined || spec.naming === outerCtx.naming ? outerCtx : { ...outerCtx, naming: spec.naming };
      const fields = byNaming[ctx.naming];
      const scope = decodeScope(raw, here, ctx.naming, ctx, outer);
      const out: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i] as Compiled;
        out[f.name] = f.codec.decode(raw[f.key], here, f.key, ctx, scope);
      }
      return out as T;
    },
    encodeAt(value, here, outerCtx, outer) {
      const ctx = spec.naming === undefined || spec.naming === outerCtx.naming ? outerCtx : { ...outerCtx, naming: spec.naming };
      const record = value as Record<string, unknown>;
      const scope = encodeScope(record, ctx, outer);
      const out: Record<string, unknown> = {};
      for (const f of byNaming[ctx.naming]) {
        const v = record[f.name];
        if (!ctx.emitDefaults && f.codec.isDefault(v)) continue;
        const w = f.codec.encode(v, here, f.key, ctx, scope);
        if (w !== undefined) out[f.key] = w;
      }
      if (rule !== undefined && 'symbolAt' in rule && rule.echo !== undefined && typeof scope !== 'string') {
        out[wireKey(rule.echo.price, ctx.naming)] = String(scope.priceScale);
        out[wireKey(rule.echo.qty, ctx.naming)] = String(scope.qtyScale);
      }
      return out;
    },
  };
}

/** A required nested message: absent or null is an error naming the field. */
export function msg<T>(codec: RootCodec<T>): FieldCodec<T> {
  return {
    decode: (raw, parent, key, ctx, scope) => codec.decodeAt(raw, { parent, seg: key }, ctx, scope),
    encode: (value, parent, key, ctx, scope) => codec.encodeAt(value, { parent, seg: key }, ctx, scope),
    isDefault: () => false,
    usesScope: codec.usesScope,
  };
}

/** An optional nested message (proto3 message presence): absent or null is undefined. */
export function optMsg<T>(codec: RootCodec<T>): FieldCodec<T | undefined> {
  return {
    decode: (raw, parent, key, ctx, scope) =>
      raw === undefined || raw === null ? undefined : codec.decodeAt(raw, { parent, seg: key }, ctx, scope),
    encode: (value, parent, key, ctx, scope) => (value === undefined ? undefined : codec.encodeAt(value, { parent, seg: key }, ctx, scope)),
    isDefault: (value) => value === undefined,
    usesScope: codec.usesScope,
  };
}

/** Overrides the derived wire key for one or both namings. */
export function renamed<T>(codec: FieldCodec<T>, keys: Partial<Record<Naming, string>>): FieldCodec<T> {
  return { ...codec, keys };
}
