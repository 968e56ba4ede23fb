/**
 * RSA key pairs for family A tests, generated once per test file (2048-bit, as onboarding uses), and a
 * temp PEM file for the private key.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  privatePem: string;
  publicPem: string;
  dir: string;
  privateKeyFile: string;
  publicKeyFile: string;
}

export function makeKeys(modulusLength = 2048): TestKeys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-keys-'));
  const privateKeyFile = path.join(dir, 'private-key.pem');
  const publicKeyFile = path.join(dir, 'public-key.pem');
  writeFileSync(privateKeyFile, privatePem, { mode: 0o600 });
  writeFileSync(publicKeyFile, publicPem);
  return { privateKey, publicKey, privatePem, publicPem, dir, privateKeyFile, publicKeyFile };
}

/** A mutable test clock (ms). */
export function testClock(start = 1_767_225_600_000): { now: () => number; advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms), set: (ms) => (t = ms) };
}
