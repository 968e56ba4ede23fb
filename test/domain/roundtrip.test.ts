/**
 * Every resource, both families: domain -> wire JSON text -> domain gives the same value, with and
 * without emitted defaults; and the wire keys follow the family's naming.
 */
import { describe, expect, test } from 'vitest';
import { type WireCodec, authCodecs, familyA, gateway } from '../../src/domain/index.ts';
import { familySamples, fixedSamples, installDecimalEquality, scalesFor } from './fixtures.ts';

installDecimalEquality();

function roundTrip<T>(codec: WireCodec<T>, value: T, resource: string, emitDefaults: boolean): T {
  const scales = scalesFor(resource);
  const text = JSON.stringify(codec.encode(value, scales, { emitDefaults }));
  return codec.decodeText(text, scales);
}

function wireKeys(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) wireKeys(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      wireKeys(v, out);
    }
  }
  return out;
}

const families = { gateway, familyA } as const;

describe.each(Object.entries(families))('%s round trip', (familyName, family) => {
  test.each(Object.keys(familySamples))('%s survives domain -> wire -> domain', (resource) => {
    const codec = (family as Record<string, WireCodec<unknown>>)[resource] as WireCodec<unknown>;
    const sample = (familySamples as Record<string, unknown>)[resource];
    expect(roundTrip(codec, sample, resource, false)).toEqual(sample);
    expect(roundTrip(codec, sample, resource, true)).toEqual(sample);
  });

  test.each(Object.keys(familySamples))('%s uses the family key naming', (resource) => {
    const codec = (family as Record<string, WireCodec<unknown>>)[resource] as WireCodec<unknown>;
    const sample = (familySamples as Record<string, unknown>)[resource];
    const keys = [...wireKeys(codec.encode(sample, scalesFor(resource)))].filter(
      (k) => !k.startsWith('@') && !/^-?\d+$/.test(k) && k !== 'note' && k !== 'venue' && k !== 'n',
    );
    for (const key of keys) {
      if (familyName === 'gateway') expect(key).toMatch(/^[a-z0-9_]+$/);
      else expect(key).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    }
  });
});

describe('fixed-naming payloads (tokens, gateway auth, KYC)', () => {
  test.each(Object.keys(fixedSamples))('%s survives domain -> wire -> domain', (resource) => {
    const codec = (authCodecs as Record<string, WireCodec<unknown>>)[resource] as WireCodec<unknown>;
    const sample = (fixedSamples as Record<string, unknown>)[resource];
    expect(roundTrip(codec, sample, resource, false)).toEqual(sample);
    expect(roundTrip(codec, sample, resource, true)).toEqual(sample);
  });

  test('the OAuth token response is snake_case and the gateway login response is camelCase', () => {
    expect(authCodecs.tokenResponse.encode(fixedSamples.tokenResponse)).toEqual({
      access_token: 'at',
      token_type: 'Bearer',
      expires_in: '180',
    });
    expect(Object.keys(authCodecs.loginResponse.encode(fixedSamples.loginResponse))).toContain('accessExpirationTime');
  });

  test('the token response accepts expires_in as a JSON number', () => {
    expect(authCodecs.tokenResponse.decode({ access_token: 'a', token_type: 'Bearer', expires_in: 180 }).expiresIn).toBe(180);
  });
});
