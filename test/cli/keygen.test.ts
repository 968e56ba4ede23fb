// `tradebot keygen --out <dir>`: an RSA 2048 pair, the private key with mode 0600, the public key (and
// never the private one) printed with onboarding instructions; existing keys are never overwritten.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { captureOutput } from './helpers/output.ts';

afterEach(() => vi.restoreAllMocks());

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'tradebot-keygen-'));

describe('tradebot keygen', () => {
  it('writes a 2048-bit pair, the private key readable by the owner only', async () => {
    const dir = path.join(tempDir(), 'dev-keys');
    const io = captureOutput();
    expect(await runCli(['keygen', '--out', dir])).toBe(0);
    const privateFile = path.join(dir, 'private-key.pem');
    const publicFile = path.join(dir, 'public-key.pem');
    expect(statSync(privateFile).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const privateKey = createPrivateKey(readFileSync(privateFile, 'utf8'));
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const publicPem = readFileSync(publicFile, 'utf8');
    expect(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' })).toBe(publicPem);
    expect(io.out()).toContain(publicPem.trim());
    expect(io.out()).toContain(privateFile);
    expect(io.out()).toMatch(/SHA-256 fingerprint: ([0-9a-f]{2}:){31}[0-9a-f]{2}/);
    expect(io.out()).toContain('clientId');
  });

  it('prints the public key only, never the private key', async () => {
    const dir = tempDir();
    const io = captureOutput();
    await runCli(['keygen', '--out', dir]);
    const privatePem = readFileSync(path.join(dir, 'private-key.pem'), 'utf8');
    const text = io.out() + io.err();
    expect(text).not.toContain('PRIVATE KEY-----');
    for (const line of privatePem.split('\n').slice(1, -2)) expect(text).not.toContain(line);
  });

  it('refuses to overwrite existing keys (exit 2) and leaves them unchanged', async () => {
    const dir = tempDir();
    captureOutput();
    expect(await runCli(['keygen', '--out', dir])).toBe(0);
    const before = readFileSync(path.join(dir, 'private-key.pem'), 'utf8');
    vi.restoreAllMocks();
    const io = captureOutput();
    expect(await runCli(['keygen', '--out', dir])).toBe(2);
    expect(io.err()).toContain('[KEYGEN_WOULD_OVERWRITE]');
    expect(io.err()).toContain('private-key.pem');
    expect(readFileSync(path.join(dir, 'private-key.pem'), 'utf8')).toBe(before);
  });

  it('refuses when only the public key exists, writing nothing', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'public-key.pem'), 'old');
    const io = captureOutput();
    expect(await runCli(['keygen', '--out', dir])).toBe(2);
    expect(io.err()).toContain('[KEYGEN_WOULD_OVERWRITE]');
    expect(() => statSync(path.join(dir, 'private-key.pem'))).toThrow();
    expect(readFileSync(path.join(dir, 'public-key.pem'), 'utf8')).toBe('old');
  });

  it('needs --out', async () => {
    const io = captureOutput();
    expect(await runCli(['keygen'])).not.toBe(0);
    expect(io.err()).toContain('--out');
  });
});
