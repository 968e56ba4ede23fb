/**
 * Private key files must be readable by their owner only. The family A key: loadPrivateKey refuses a key
 * that group or others can access (mode & 0o077) with FAMILY_A_KEY_PERMISSIONS and a message saying
 * `chmod 600 <file>` (never the key), checked on the opened file so a symlink does not hide the target's
 * mode. The client factory and `tradebot run` refuse to start with such a key (exit 2, nothing contacted).
 * The KYC webhook's TLS key, by the same check (src/exchange/auth/secret-file.ts): `tradebot kyc webhook
 * serve` refuses to start on a 0644 key with KYC_TLS_KEY_PERMISSIONS (exit 2, no ready line, nothing
 * listening) and starts once the key is chmod 600 (its config has the family A section `serve` confirms
 * notifications with). POSIX only: Windows has no group/other mode bits.
 */
import { chmodSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { FamilyAErrorCode, createFamilyAClient, loadPrivateKey } from '../../src/exchange/familya/index.ts';
import { isTradebotError } from '../../src/errors.ts';
import { captureOutput } from '../cli/helpers/output.ts';
import { makeKeys } from '../exchange/familya/helpers/keys.ts';
import { makeSelfSignedCert } from '../kyc/helpers/tls.ts';
import { KycErrorCode } from '../../src/kyc/index.ts';
import { permissionsFix, tooOpenMode } from '../../src/exchange/auth/secret-file.ts';

const posix = process.platform !== 'win32';
const keys = makeKeys();
const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-key-modes-'));
const pemBody = keys.privatePem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));

function keyWithMode(name: string, mode: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, keys.privatePem, { mode: 0o600 });
  chmodSync(file, mode);
  return file;
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

afterEach(() => vi.restoreAllMocks());

describe.runIf(posix)('private key file permissions', () => {
  it.each([0o600, 0o400, 0o700])('mode %s loads', (mode) => {
    expect(loadPrivateKey(keyWithMode(`ok-${mode.toString(8)}.pem`, mode)).asymmetricKeyType).toBe('rsa');
  });

  it.each([0o644, 0o640, 0o604, 0o660, 0o620, 0o602, 0o666, 0o610])(
    'mode %s is refused with FAMILY_A_KEY_PERMISSIONS and how to fix it',
    (mode) => {
      const file = keyWithMode(`bad-${mode.toString(8)}.pem`, mode);
      const error = errorOf(() => loadPrivateKey(file));
      expect(isTradebotError(error)).toBe(true);
      expect(error).toMatchObject({ code: FamilyAErrorCode.KeyPermissions, kind: 'config' });
      expect(error.message).toContain(`chmod 600 ${file}`);
      expect(error.message).toContain(`mode 0${mode.toString(8)}`);
      for (const line of pemBody) expect(error.message).not.toContain(line);
    },
  );

  it("checks the file a symlink points to, not the link's own mode", () => {
    const target = keyWithMode('target-644.pem', 0o644);
    const link = path.join(dir, 'link.pem');
    symlinkSync(target, link);
    expect(errorOf(() => loadPrivateKey(link))).toMatchObject({ code: FamilyAErrorCode.KeyPermissions });
  });

  it('the family A client factory refuses to build a client on such a key', () => {
    const file = keyWithMode('factory-644.pem', 0o644);
    const exchange = {
      apiUrl: 'http://127.0.0.1:9',
      authUrl: 'http://127.0.0.1:9',
      gatewayUrl: 'http://127.0.0.1:9',
      familyA: { clientId: 'c', privateKeyFile: file, participant: 'firms/f/users/u', refreshMarginSeconds: 30 },
    };
    expect(errorOf(() => createFamilyAClient(exchange))).toMatchObject({ code: FamilyAErrorCode.KeyPermissions });
  });

  it('tradebot run refuses to start: exit 2, the code and `chmod 600 <file>` on stderr, no stack trace', async () => {
    const file = keyWithMode('run-644.pem', 0o644);
    const config = path.join(dir, 'run.yaml');
    writeFileSync(
      config,
      `logging: { level: silent }
exchange:
  apiUrl: http://127.0.0.1:9
  authUrl: http://127.0.0.1:9
  gatewayUrl: http://127.0.0.1:9
  familyA: { clientId: c, privateKeyFile: ${file}, participant: firms/demo/users/alice }
  gateway: { username: alice, password: not-a-real-password }
bot:
  strategy: market-maker
  account: firms/demo/accounts/alice-main
  params: { symbols: [RAIN-NYC-2026-12-01], halfSpread: "0.01", quoteQty: "1", maxInventory: "5", skewPerContract: "0.001" }
risk: {}
`,
    );
    const io = captureOutput();
    expect(await runCli(['run', '--config', config, '--duration', '1'])).toBe(2);
    expect(io.err()).toContain('[FAMILY_A_KEY_PERMISSIONS]');
    expect(io.err()).toContain(`chmod 600 ${file}`);
    expect(io.err()).not.toMatch(/^\s+at /m);
    expect(io.out()).not.toContain('run.summary');
  });

  it('kyc webhook serve refuses a TLS key group or others can read: exit 2, the code and `chmod 600 <file>`, nothing served', async () => {
    const tls = await makeSelfSignedCert(mkdtempSync(path.join(dir, 'kyc-')));
    chmodSync(tls.keyFile, 0o644);
    const stateFile = path.join(tls.dir, 'state.json');
    const config = path.join(tls.dir, 'kyc.yaml');
    writeFileSync(
      config,
      `logging: { level: silent }
exchange:
  apiUrl: http://127.0.0.1:9
  authUrl: http://127.0.0.1:9
  gatewayUrl: http://127.0.0.1:9
  familyA: { clientId: kyc-client, privateKeyFile: ${keyWithMode('kyc-family-a.pem', 0o600)}, participant: firms/demo/users/alice }
  kyc:
    webhook: { host: 127.0.0.1, port: 0, certFile: ${tls.certFile}, keyFile: ${tls.keyFile}, stateFile: ${stateFile} }
`,
    );
    let io = captureOutput();
    expect(await runCli(['kyc', 'webhook', 'serve', '--config', config])).toBe(2);
    expect(io.err()).toContain(`[${KycErrorCode.TlsKeyPermissions}]`);
    expect(io.err()).toContain(`chmod 600 ${tls.keyFile}`);
    expect(io.err()).toContain('mode 0644');
    expect(io.err()).not.toMatch(/^\s+at /m);
    for (const line of tls.key.split('\n').filter((l) => l !== '' && !l.startsWith('-----'))) expect(io.err()).not.toContain(line);
    expect(io.out()).not.toContain('kyc.webhook.ready');
    expect(existsSync(stateFile)).toBe(false);

    // the fix the message gives works
    vi.restoreAllMocks();
    chmodSync(tls.keyFile, 0o600);
    io = captureOutput();
    const serving = runCli(['kyc', 'webhook', 'serve', '--config', config]);
    await io.waitForLine((l) => l.includes('kyc.webhook.ready'));
    process.emit('SIGINT');
    expect(await serving).toBe(0);
  });
});

describe('the shared secret file rule', () => {
  it('any group or other bit is too open; the owner bits alone are not; Windows has no such bits', () => {
    expect(tooOpenMode(0o100600)).toBeUndefined();
    expect(tooOpenMode(0o100400)).toBeUndefined();
    expect(tooOpenMode(0o100700)).toBeUndefined();
    for (const mode of [0o644, 0o640, 0o604, 0o610, 0o601, 0o620, 0o602, 0o777])
      expect(tooOpenMode(0o100000 | mode, 'linux')).toBe(`0${mode.toString(8)}`);
    expect(tooOpenMode(0o100666, 'win32')).toBeUndefined();
    expect(permissionsFix('/k/key.pem', '0644')).toBe(
      'group or others can access it (mode 0644); restrict it to its owner with `chmod 600 /k/key.pem`',
    );
  });
});
