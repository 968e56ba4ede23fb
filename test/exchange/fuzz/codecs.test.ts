/**
 * Fuzzing every wire codec the clients decode with (`gateway.*`, `familyA.*`, `authCodecs.*`): random
 * JSON, the encoded sample of each resource with fields deleted / retyped / wrapped / added, and random or
 * truncated text into `decodeText`. Each decode either returns a value or throws a TradebotError with a
 * domain code and a message naming where the problem is; never a TypeError or a value that is not what the
 * types say. A decoded value also survives a round trip: it encodes again and decodes to the same value
 * (which catches a decoder that lets through something no encoder can write, e.g. a prototype property).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainErrorCode, authCodecs, familyA, gateway, type WireCodec } from '../../../src/domain/index.ts';
import { isTradebotError } from '../../../src/errors.ts';
import {
  applyMutations,
  hostileJson,
  hostileString,
  mutation,
  slotCount,
  toJsonText,
  type Json,
} from '../../sim/fuzz/helpers/arbitraries.ts';
import { fuzzRuns } from '../../sim/fuzz/helpers/fuzz-sim.ts';
import { familySamples, fixedSamples, installDecimalEquality, scalesFor } from '../../domain/fixtures.ts';

installDecimalEquality();
// Error `details` has two empty forms ('' and []), both proto3 defaults: an empty list decodes as [], is
// omitted when encoded, and comes back as ''. Either means "no details"; the round trip treats them alike.
expect.addEqualityTesters([(a: unknown, b: unknown) => (isNoDetails(a) && isNoDetails(b) ? true : undefined)]);

function isNoDetails(value: unknown): boolean {
  return value === '' || (Array.isArray(value) && value.length === 0);
}

const DOMAIN_CODES = new Set<string>(Object.values(DomainErrorCode));

interface Target {
  name: string;
  codec: WireCodec<unknown>;
  sample: Json;
  scales: ReturnType<typeof scalesFor> | undefined;
}

function targets(): Target[] {
  const out: Target[] = [];
  for (const [family, codecs] of [
    ['gateway', gateway],
    ['familyA', familyA],
  ] as const) {
    for (const [name, codec] of Object.entries(codecs) as [keyof typeof familySamples, WireCodec<unknown>][]) {
      const scales = scalesFor(name);
      out.push({ name: `${family}.${name}`, codec, scales, sample: codec.encode(familySamples[name], scales) as Json });
    }
  }
  for (const [name, codec] of Object.entries(authCodecs) as [keyof typeof fixedSamples, WireCodec<unknown>][]) {
    out.push({ name: `authCodecs.${name}`, codec, scales: undefined, sample: codec.encode(fixedSamples[name]) as Json });
  }
  return out;
}

const TARGETS = targets();

/** Decodes; returns the value, or checks the error is a typed domain error and returns undefined. */
function decodeOrTypedError(target: Target, run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (!isTradebotError(error))
      throw new Error(`${target.name}: decode threw a ${(error as Error).name ?? typeof error}, not a TradebotError: ${String(error)}`, {
        cause: error,
      });
    expect(DOMAIN_CODES.has(error.code), `${target.name}: unexpected code ${error.code}`).toBe(true);
    expect(error.message.length, `${target.name}: empty message`).toBeGreaterThan(0);
    expect(error.message).not.toMatch(/\bundefined\b.*\bof undefined\b|Cannot read prop/);
    return undefined;
  }
}

/**
 * A decoded value must encode again and decode to itself. One exception: an order decoded with the scales
 * it carries itself (`price_scale` / `qty_scale` beside an unknown symbol) cannot be encoded without
 * scales for that symbol; SCALE_UNKNOWN_SYMBOL from the encoder is a precondition, not a decoder bug.
 */
function roundTrips(target: Target, value: unknown): void {
  let wire: Record<string, unknown>;
  try {
    wire = target.codec.encode(value, target.scales);
  } catch (error) {
    if (isTradebotError(error) && error.code === DomainErrorCode.SCALE_UNKNOWN_SYMBOL) return;
    throw new Error(`${target.name}: decoded a value the encoder cannot write back: ${String(error)}`, { cause: error });
  }
  expect(target.codec.decode(JSON.parse(JSON.stringify(wire)), target.scales), `${target.name}: round trip`).toEqual(value);
}

/** Nesting depth of JSON text (strings skipped). */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth -= 1;
  }
  return max;
}

/**
 * Opaque JSON fields (order `context`, execution `metadata`) keep what they receive, however deep; the
 * round trip's own JSON.stringify and deep equality would overflow the stack on such values, so it is
 * skipped for them (the decode itself was still checked).
 */
const ROUND_TRIP_MAX_DEPTH = 500;

const targetIndex = fc.nat({ max: TARGETS.length - 1 });

describe('wire codecs under bad input', () => {
  it('every resource has a sample to mutate', () => {
    expect(TARGETS.length).toBeGreaterThan(100);
  });

  it('mutated samples decode to a value that round-trips, or fail with a typed domain error', () => {
    let decoded = 0;
    fc.assert(
      fc.property(targetIndex, fc.array(mutation, { minLength: 1, maxLength: 4 }), (i, mutations) => {
        const target = TARGETS[i] as Target;
        const input = applyMutations(target.sample, mutations);
        const text = toJsonText(input);
        const value = decodeOrTypedError(target, () => target.codec.decodeText(text, target.scales));
        if (value !== undefined) {
          decoded += 1;
          if (nestingDepth(text) <= ROUND_TRIP_MAX_DEPTH) roundTrips(target, value);
        }
      }),
      { numRuns: fuzzRuns(3000) },
    );
    expect(decoded, 'some mutations keep the payload valid (extra fields, harmless values)').toBeGreaterThan(100);
  });

  it('a prototype key (constructor, __proto__, toString, ...) in any field decodes to a plain value or a typed error', () => {
    const keys = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
    let checked = 0;
    for (const target of TARGETS) {
      for (let at = 1; at < slotCount(target.sample); at++) {
        for (const key of keys) {
          const input = applyMutations(target.sample, [{ op: 'replace', at, value: key }]);
          const value = decodeOrTypedError(target, () => target.codec.decode(input, target.scales));
          if (value !== undefined) roundTrips(target, value);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('random JSON decodes or fails with a typed domain error, for every codec', () => {
    fc.assert(
      fc.property(targetIndex, hostileJson, (i, input) => {
        const target = TARGETS[i] as Target;
        const value = decodeOrTypedError(target, () => target.codec.decode(input, target.scales));
        if (value !== undefined && nestingDepth(toJsonText(input)) <= ROUND_TRIP_MAX_DEPTH) roundTrips(target, value);
      }),
      { numRuns: fuzzRuns(2000) },
    );
  });

  it('random and truncated text into decodeText fails with WIRE_INVALID_JSON or a field error', () => {
    fc.assert(
      fc.property(
        targetIndex,
        fc.oneof(
          hostileString,
          fc.nat().map((n) => ({ cut: n })),
        ),
        (i, text) => {
          const target = TARGETS[i] as Target;
          const full = JSON.stringify(target.sample);
          const line = typeof text === 'string' ? text : full.slice(0, text.cut % full.length);
          decodeOrTypedError(target, () => target.codec.decodeText(line, target.scales));
        },
      ),
      { numRuns: fuzzRuns(2000) },
    );
  });

  it('decodes without instrument scales or with the wrong ones as a typed error, never a crash', () => {
    fc.assert(
      fc.property(targetIndex, fc.array(mutation, { maxLength: 2 }), fc.constantFrom('none', 'fn', 'empty-map'), (i, mutations, scales) => {
        const target = TARGETS[i] as Target;
        const input = applyMutations(target.sample, mutations);
        const source = scales === 'none' ? undefined : scales === 'fn' ? () => undefined : new Map();
        decodeOrTypedError(target, () => target.codec.decode(input, source));
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });
});
