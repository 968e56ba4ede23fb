// Reading the family A private key: PKCS#8 and PKCS#1 RSA keys of >= 2048 bits load; a missing file, a
// short key, an EC key, an encrypted key or garbage fail with typed config errors that never quote the file.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FamilyAErrorCode, loadPrivateKey, publicKeyPemOf } from '../../../src/exchange/familya/index.ts';
import { makeKeys } from './helpers/keys.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-pk-'));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
};

describe('loadPrivateKey', () => {
  it('loads a 2048-bit PKCS#8 key and a PKCS#1 key', () => {
    const keys = makeKeys();
    expect(loadPrivateKey(keys.privateKeyFile).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(publicKeyPemOf(loadPrivateKey(keys.privateKeyFile))).toBe(keys.publicPem);
    const pkcs1 = write('pkcs1.pem', keys.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    expect(loadPrivateKey(pkcs1).asymmetricKeyType).toBe('rsa');
  });

  it('names a missing file and how to make one', () => {
    expect(() => loadPrivateKey(path.join(dir, 'nope.pem'))).toThrow(
      expect.objectContaining({
        code: FamilyAErrorCode.KeyUnreadable,
        kind: 'config',
        message: expect.stringContaining('tradebot keygen'),
      }),
    );
  });

  it('refuses keys that cannot sign RS256 at onboarding strength', () => {
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadPrivateKey(write('short.pem', short))).toThrow(
      expect.objectContaining({ code: FamilyAErrorCode.KeyInvalid, message: expect.stringContaining('1024 bits') }),
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadPrivateKey(write('ec.pem', ec))).toThrow(
      expect.objectContaining({ code: FamilyAErrorCode.KeyInvalid, message: expect.stringContaining('RSA') }),
    );
  });

  it('refuses an encrypted key and garbage without quoting them', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const encrypted = privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }).toString();
    const error = (() => {
      try {
        loadPrivateKey(write('enc.pem', encrypted));
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: FamilyAErrorCode.KeyInvalid, message: expect.stringContaining('encrypted') });
    expect(error?.message).not.toContain('BEGIN');
    expect(() => loadPrivateKey(write('garbage.pem', 'hello'))).toThrow(expect.objectContaining({ code: FamilyAErrorCode.KeyInvalid }));
  });
});
