/**
 * Test-only TLS material and an HTTPS poster: a self-signed certificate for 127.0.0.1/localhost made with
 * the `selfsigned` package (no system openssl needed, so no test skips for want of it) into a temp folder,
 * the key written owner-only (mode 0600, as the receiver requires of a key file), and a tiny node:https
 * POST that trusts exactly that certificate.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface TestCert {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A fresh self-signed cert (RSA 2048, SHA-256, CN=localhost, SAN IP:127.0.0.1 and DNS:localhost) in a temp dir. */
export async function makeSelfSignedCert(dir = mkdtempSync(path.join(tmpdir(), 'tradebot-tls-')), name = ''): Promise<TestCert> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(now - DAY_MS),
    notAfterDate: new Date(now + 2 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  const prefix = name === '' ? '' : `${name}.`;
  const certFile = path.join(dir, `${prefix}cert.pem`);
  const keyFile = path.join(dir, `${prefix}key.pem`);
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { dir, certFile, keyFile, cert: pems.cert, key: pems.private };
}

export interface PostResult {
  status: number;
  body: unknown;
}

/** POSTs `body` (a string is sent as-is) to an https URL, trusting `ca`. */
export function postHttps(url: string, body: unknown, ca: string, method = 'POST'): Promise<PostResult> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method, ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (data += chunk));
        res.on('end', () => {
          let parsed: unknown = data;
          try {
            parsed = JSON.parse(data);
          } catch {
            // keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
