/**
 * fast-check arbitraries for bad input, shared by the simulator, client and config fuzz suites: hostile
 * strings (unicode, lone surrogates, prototype keys, huge), numbers that do not fit (floats, 2^63, -0),
 * deep nesting, and `mutated(valid)`: a valid JSON value with 1 to 4 mutations applied at random paths
 * (a field deleted, replaced by a value of another type, a number turned into a string or back, wrapped
 * in an array, an extra field added). Mutations are data (path index, value), so failures shrink well.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Strings a parser or a dictionary lookup may trip over. */
export const SPECIAL_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '1e400',
  '-0',
  'NaN',
  'Infinity',
  'null',
  'true',
  'undefined',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'prototype',
  'valueOf',
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\ufeff',
  'é',
  '🙂',
  'Ω≈ç√',
  '\\',
  '"',
  "'",
  '%00',
  '%zz',
  '../..',
  '/',
  '\n',
  '\r\n',
  '99999999999999999999',
  '-9223372036854775809',
  '9223372036854775808',
  '9007199254740993',
  '0x10',
  '+1',
  '01',
  'SIDE_BUY',
  'BUY',
  'ORDER_TYPE_LIMIT',
  'TIME_IN_FORCE_DAY',
  'RAIN-NYC-2026-12-01',
  'firms/demo/accounts/alice-main',
  'firms/other/accounts/carol-main',
  'firms/demo/users/bob',
  '2026-01-05T10:00:00Z',
  '2026-13-45T99:99:99Z',
] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 0.5, 1e21, 1e308, -1e308, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 2 ** 31, -(2 ** 31) - 1, 5e-324),
);

/** `[[[...]]]` or `{"a":{"a":...}}` nested `depth` levels (kept shallow in memory: V8 recursion limits). */
export function nested(depth: number, object: boolean): Json {
  let value: Json = object ? {} : [];
  for (let i = 0; i < depth; i++) value = object ? { a: value } : [value];
  return value;
}

/**
 * Deep nesting is sent as text: a value this deep cannot be built or stringified in memory, but JSON.parse
 * on the other side reads it. A marker string stands for it until `toJsonText` writes the body.
 */
const DEEP_MARKER = /"\\u0000deep:(\d+):(object|array)"/g;

export function deepMarker(depth: number, object: boolean): string {
  return `\u0000deep:${depth}:${object ? 'object' : 'array'}`;
}

/** True for a deep-nesting marker: on the wire it is an object or array, never the string it is here. */
export function isDeepMarker(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('\u0000deep:') && /^.deep:\d+:(object|array)$/.test(value);
}

export function nestedText(depth: number, object: boolean): string {
  return object ? `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** JSON text of `value` with every deep marker expanded. */
export function toJsonText(value: Json): string {
  return JSON.stringify(value).replace(DEEP_MARKER, (_m, depth: string, kind: string) => nestedText(Number(depth), kind === 'object'));
}

export const deepValue: fc.Arbitrary<Json> = fc.oneof(
  fc.tuple(fc.integer({ min: 2, max: 300 }), fc.boolean()).map(([depth, object]) => nested(depth, object)),
  fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.boolean()).map(([depth, object]) => deepMarker(depth, object)),
);

/** Any JSON value, with hostile leaves. */
export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    hostileNumber,
    hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A replacement for a field: another type, a hostile value, deep nesting, or any JSON. */
export const replacement: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: deepValue },
  { weight: 3, arbitrary: hostileJson },
);

export type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'replace'; at: number; value: Json }
  | { op: 'swapType'; at: number }
  | { op: 'wrap'; at: number; object: boolean }
  | { op: 'addField'; at: number; key: string; value: Json };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: replacement }),
  fc.record({ op: fc.constant('swapType' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('wrap' as const), at: fc.nat(), object: fc.boolean() }),
  fc.record({ op: fc.constant('addField' as const), at: fc.nat(), key: hostileString, value: replacement }),
);

type Slot = { parent: Json[] | { [key: string]: Json }; key: string | number };

function slots(value: Json, out: Slot[] = []): Slot[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push({ parent: value, key: i });
      slots(item, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push({ parent: value, key });
      slots(item, out);
    }
  }
  return out;
}

/** How many fields and list items `value` holds at any depth (the `at` range of a mutation). */
export function slotCount(value: Json): number {
  return slots({ root: value }).length;
}

function objects(value: Json, out: { [key: string]: Json }[] = []): { [key: string]: Json }[] {
  if (Array.isArray(value)) for (const item of value) objects(item, out);
  else if (value !== null && typeof value === 'object') {
    out.push(value);
    for (const item of Object.values(value)) objects(item, out);
  }
  return out;
}

/** A number as a string and back, a string as a number (or a bool), anything else as a string. */
function swapped(value: Json): Json {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value === '' ? 0 : true;
  }
  if (typeof value === 'boolean') return value ? 'true' : 1;
  return JSON.stringify(value);
}

function set(slot: Slot, value: Json | undefined): void {
  if (Array.isArray(slot.parent)) {
    if (value === undefined) slot.parent.splice(slot.key as number, 1);
    else slot.parent[slot.key as number] = value;
  } else if (value === undefined) delete slot.parent[slot.key as string];
  else Object.defineProperty(slot.parent, slot.key, { value, enumerable: true, writable: true, configurable: true });
}

function current(slot: Slot): Json {
  return (Array.isArray(slot.parent) ? slot.parent[slot.key as number] : slot.parent[slot.key as string]) as Json;
}

/** Applies mutations to a deep copy of `valid` (own-property writes, so `__proto__` is a plain key). */
export function applyMutations(valid: Json, mutations: readonly Mutation[]): Json {
  const root: { [key: string]: Json } = { root: structuredClone(valid) };
  for (const m of mutations) {
    const all = slots(root);
    const slot = all[m.at % all.length] as Slot;
    switch (m.op) {
      case 'delete':
        if (slot.parent === root) set(slot, null);
        else set(slot, undefined);
        break;
      case 'replace':
        set(slot, m.value);
        break;
      case 'swapType':
        set(slot, swapped(current(slot)));
        break;
      case 'wrap':
        set(slot, m.object ? { value: current(slot) } : [current(slot)]);
        break;
      case 'addField': {
        const targets = objects(root['root'] as Json);
        const target = targets[m.at % Math.max(1, targets.length)];
        if (target !== undefined)
          Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
        break;
      }
    }
  }
  return root['root'] as Json;
}

/** A valid value with 1..4 random mutations; `valid` itself 1 time in 10 (to track valid-by-chance input). */
export function mutated(valid: Json): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(valid) },
    { weight: 9, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 4 }).map((ms) => applyMutations(valid, ms)) },
  );
}
