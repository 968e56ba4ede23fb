/**
 * The KYC receiver's TLS is forward-secret only (issue 21): TLS 1.3, or TLS 1.2 with an ECDHE key exchange; a
 * TLS 1.2 client offering only static-RSA suites (AES128-GCM-SHA256, AES256-SHA256, ...) fails the handshake,
 * and so does TLS 1.1 or older.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKycReceiver, type KycReceiver } from '../../src/kyc/index.ts';
import { makeSelfSignedCert, type TestCert } from './helpers/tls.ts';

let cert: TestCert;
let receiver: KycReceiver;
beforeAll(async () => {
  cert = await makeSelfSignedCert();
  receiver = await startKycReceiver({
    port: 0,
    certFile: cert.certFile,
    keyFile: cert.keyFile,
    stateFile: path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-kyc-tls-')), 'state.jsonl'),
    confirm: async () => undefined,
  });
});
afterAll(async () => receiver.close());

/** The cipher a handshake with these options settles on, or the handshake's error code. */
function handshake(options: tls.ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: receiver.port, ca: cert.cert, servername: 'localhost', ...options }, () => {
      const name = socket.getCipher().name;
      socket.end();
      resolve(name);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
  });
}

describe('KYC receiver TLS', () => {
  it('refuses TLS 1.2 without forward secrecy', async () => {
    for (const cipher of ['AES128-GCM-SHA256', 'AES256-GCM-SHA384', 'AES128-SHA256', 'AES256-SHA']) {
      expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: cipher }), cipher).toMatch(/^error /);
    }
  });

  it('accepts TLS 1.2 with ECDHE, and TLS 1.3', async () => {
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' })).toBe('ECDHE-RSA-AES128-GCM-SHA256');
    expect(await handshake({ minVersion: 'TLSv1.3' })).toMatch(/^TLS_/);
  });

  it('refuses TLS 1.1', async () => {
    expect(await handshake({ maxVersion: 'TLSv1.1', minVersion: 'TLSv1', ciphers: 'ECDHE-RSA-AES128-SHA:@SECLEVEL=0' })).toMatch(/^error /);
  });
});
