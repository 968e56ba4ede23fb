/**
 * Test-only TLS material and an HTTPS poster: a self-signed certificate for 127.0.0.1/localhost made with
 * the system's openssl into a temp folder (tests that need it skip when openssl is missing), and a tiny
 * node:https POST that trusts exactly that certificate.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function hasOpenssl(): boolean {
  try {
    execFileSync('which', ['openssl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface TestCert {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: string;
}

/** A fresh self-signed cert (RSA 2048, CN=localhost, SAN IP:127.0.0.1 and DNS:localhost) in a temp dir. */
export function makeSelfSignedCert(dir = mkdtempSync(path.join(tmpdir(), 'tradebot-tls-'))): TestCert {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    { stdio: 'ignore' },
  );
  return { dir, certFile, keyFile, cert: readFileSync(certFile, 'utf8') };
}

export interface PostResult {
  status: number;
  body: unknown;
}

/** POSTs `body` (a string is sent as-is) to an https URL, trusting `ca`. */
export function postHttps(url: string, body: unknown, ca: string, method = 'POST'): Promise<PostResult> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
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
    });
    req.on('error', reject);
    req.end(text);
  });
}
