/**
 * Fuzzing the gRPC client's message decoding (issue 8, "every client parser" over gRPC): for every message
 * the client decodes (each unary answer and each stream message), a fully populated sample goes through the
 * real protobuf path (codec encode -> serializeResponse -> bytes -> deserializeResponse -> codec decode) and
 * is damaged on the way: the loaded object mutated field by field (deleted, retyped, wrapped, extra keys),
 * the mutated object serialized again (the loader coerces what it can: wrong types where the loader allows),
 * the bytes flipped, truncated, extended or random, or the whole object random JSON. Every decode either
 * returns a value or throws a TradebotError with a stable code (a domain wire code, or
 * GRPC_UNDECODABLE_MESSAGE for bytes that are not a message) and a message naming the problem; never a
 * TypeError or a "Cannot read properties of undefined" from deep inside. Deserializers never throw. A value
 * decoded from mutated input encodes again and decodes to itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainErrorCode } from '../../../src/domain/index.ts';
import { isTradebotError } from '../../../src/errors.ts';
import { UNDECODABLE_MESSAGE, UndecodableMessage, exchangeProtocol } from '../../../src/exchange/grpc/protocol/index.ts';
import { applyMutations, hostileJson, mutation, type Json } from '../../sim/fuzz/helpers/arbitraries.ts';
import { fuzzRuns } from '../../sim/fuzz/helpers/fuzz-sim.ts';
import { SCALES, installDecimalEquality } from '../../domain/fixtures.ts';
import { CLIENT_TARGETS, damage, damaged, type ClientTarget } from './helpers/grpc-targets.ts';

installDecimalEquality();

const CODES = new Set<string>([...Object.values(DomainErrorCode), UNDECODABLE_MESSAGE]);

const deserialize = (t: ClientTarget, bytes: Buffer): unknown => exchangeProtocol().method(t.ref).deserializeResponse(bytes);

/** Decodes; returns the value, or checks the error is typed with a stable code and returns undefined. */
function decodeOrTypedError(t: ClientTarget, raw: unknown): unknown {
  try {
    return t.codec.decode(raw, SCALES);
  } catch (error) {
    if (!isTradebotError(error))
      throw new Error(`${t.name}: decode threw a ${(error as Error).name ?? typeof error}, not a TradebotError: ${String(error)}`, {
        cause: error,
      });
    expect(CODES.has(error.code), `${t.name}: unexpected code ${error.code}`).toBe(true);
    expect(error.message.trim().length, `${t.name}: empty message`).toBeGreaterThan(0);
    expect(error.message).not.toMatch(/Cannot read prop|of undefined|is not a function/);
    return undefined;
  }
}

/** A decoded value encodes again (through protobuf bytes) and decodes to itself. */
function roundTrips(t: ClientTarget, value: unknown): void {
  let encoded: Record<string, unknown>;
  try {
    encoded = t.codec.encode(value, SCALES);
  } catch (error) {
    // an order decoded with scales it carries itself cannot be encoded without scales for its symbol
    if (isTradebotError(error) && error.code === DomainErrorCode.SCALE_UNKNOWN_SYMBOL) return;
    throw new Error(`${t.name}: decoded a value the encoder cannot write back: ${String(error)}`, { cause: error });
  }
  const wire = exchangeProtocol().method(t.ref);
  expect(t.codec.decode(wire.deserializeResponse(wire.serializeResponse(encoded)), SCALES), `${t.name}: round trip`).toEqual(value);
}

const targetIndex = fc.nat({ max: CLIENT_TARGETS.length - 1 });

/** JSON.stringify writes a lone surrogate as an escape (a valid pair stays literal). */
const LONE_SURROGATE = /\\ud[89a-f][0-9a-f]{2}/i;

describe('gRPC client message decoding under bad input', () => {
  it('every message the client decodes has a valid sample that decodes', () => {
    expect(CLIENT_TARGETS.length).toBe(15);
    for (const t of CLIENT_TARGETS) expect(() => t.codec.decode(deserialize(t, t.bytes), SCALES), t.name).not.toThrow();
  });

  it('mutated loaded messages decode to a value that round-trips, or fail with a typed error', () => {
    let decoded = 0;
    fc.assert(
      fc.property(targetIndex, fc.array(mutation, { minLength: 1, maxLength: 4 }), (i, mutations) => {
        const t = CLIENT_TARGETS[i] as ClientTarget;
        const input = applyMutations(deserialize(t, t.bytes) as Json, mutations);
        const value = decodeOrTypedError(t, input);
        if (value !== undefined) {
          decoded += 1;
          // a lone surrogate cannot come off the wire (protobuf strings are UTF-8) nor go back onto it
          if (!LONE_SURROGATE.test(JSON.stringify(input))) roundTrips(t, value);
        }
      }),
      { numRuns: fuzzRuns(1000) },
    );
    expect(decoded, 'some mutations keep the message valid').toBeGreaterThan(50);
  });

  it('mutated messages serialized again (the loader coercing wrong types) decode or fail with a typed error', () => {
    let serialized = 0;
    fc.assert(
      fc.property(targetIndex, fc.array(mutation, { minLength: 1, maxLength: 4 }), (i, mutations) => {
        const t = CLIENT_TARGETS[i] as ClientTarget;
        const wire = exchangeProtocol().method(t.ref);
        let bytes: Buffer;
        try {
          bytes = wire.serializeResponse(applyMutations(deserialize(t, t.bytes) as Json, mutations) as object);
        } catch {
          return; // protobufjs refuses the object: nothing reaches the wire
        }
        serialized += 1;
        const value = decodeOrTypedError(t, deserialize(t, bytes));
        if (value !== undefined) roundTrips(t, value);
      }),
      { numRuns: fuzzRuns(1000) },
    );
    expect(serialized).toBeGreaterThan(300);
  });

  it('damaged or random bytes never make the deserializer throw; they decode or fail with a typed error', () => {
    let undecodable = 0;
    fc.assert(
      fc.property(targetIndex, damage, (i, d) => {
        const t = CLIENT_TARGETS[i] as ClientTarget;
        let raw: unknown;
        expect(() => (raw = deserialize(t, damaged(t.bytes, d))), t.name).not.toThrow();
        if (raw instanceof UndecodableMessage) undecodable += 1;
        decodeOrTypedError(t, raw);
      }),
      { numRuns: fuzzRuns(1000) },
    );
    expect(undecodable, 'some damage makes bytes that are not a message').toBeGreaterThan(20);
  });

  it('random JSON objects in place of a loaded message decode or fail with a typed error', () => {
    fc.assert(
      fc.property(targetIndex, hostileJson, (i, raw) => {
        decodeOrTypedError(CLIENT_TARGETS[i] as ClientTarget, raw);
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });
});
