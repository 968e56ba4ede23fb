/**
 * rsaKeyPair / rsaKeyPairSync (src/sim/familya/rsa-key-pair.ts): the KeyObjects are a working RSA pair of the
 * requested size, parsed from the PEM the generation produced (the PEM fields are those very keys), and the
 * public key exports as an RS256-usable JWK.
 */
import { createPublicKey, sign, verify } from 'node:crypto';
import { exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { rsaKeyPair, rsaKeyPairSync, type RsaKeyPair } from '../../../src/sim/familya/rsa-key-pair.ts';

function expectWorkingPair(pair: RsaKeyPair, bits: number): void {
  expect(pair.privateKey.type).toBe('private');
  expect(pair.publicKey.type).toBe('public');
  expect(pair.publicKey.asymmetricKeyType).toBe('rsa');
  expect(pair.publicKey.asymmetricKeyDetails?.modulusLength).toBe(bits);
  const message = Buffer.from('order 42');
  const signature = sign('sha256', message, pair.privateKey);
  expect(verify('sha256', message, pair.publicKey, signature)).toBe(true);
  expect(verify('sha256', Buffer.from('order 43'), pair.publicKey, signature)).toBe(false);
  expect(pair.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
  expect(pair.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  expect(pair.publicKey.export({ type: 'spki', format: 'pem' })).toBe(pair.publicKeyPem);
  expect(createPublicKey(pair.privateKeyPem).export({ type: 'spki', format: 'pem' })).toBe(pair.publicKeyPem);
}

describe('rsaKeyPair', () => {
  it('makes a working pair of the requested size, off the main thread', async () => {
    expectWorkingPair(await rsaKeyPair(), 2048);
  });

  it('makes one synchronously too, and two calls never give the same key', async () => {
    const a = rsaKeyPairSync(2048);
    expectWorkingPair(a, 2048);
    expect(rsaKeyPairSync(2048).publicKeyPem).not.toBe(a.publicKeyPem);
  });

  it('exports the public key as an RSA JWK (what the simulated token server publishes)', async () => {
    const { publicKey } = await rsaKeyPair();
    const jwk = await exportJWK(publicKey);
    expect(jwk.kty).toBe('RSA');
    expect(jwk.e).toBe('AQAB');
    expect(Buffer.from(jwk.n ?? '', 'base64url')).toHaveLength(256);
    expect(jwk).not.toHaveProperty('d');
  });
});
