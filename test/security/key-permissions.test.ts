/**
 * The family A private key file must be readable by its owner only: loadPrivateKey refuses a key that
 * group or others can access (mode & 0o077) with FAMILY_A_KEY_PERMISSIONS and a message saying
 * `chmod 600 <file>` (never the key), checked on the opened file so a symlink does not hide the target's
 * mode. The client factory and `tradebot run` refuse to start with such a key (exit 2, nothing contacted).
 * POSIX only: Windows has no group/other mode bits.
 */
import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { FamilyAErrorCode, createFamilyAClient, loadPrivateKey } from '../../src/exchange/familya/index.ts';
import { isTradebotError } from '../../src/errors.ts';
import { captureOutput } from '../cli/helpers/output.ts';
import { makeKeys } from '../exchange/familya/helpers/keys.ts';

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

  it.each([0o644, 0o640, 0o604, 0o660, 0o620, 0o602, 0o666, 0o610])('mode %s is refused with FAMILY_A_KEY_PERMISSIONS and how to fix it', (mode) => {
    const file = keyWithMode(`bad-${mode.toString(8)}.pem`, mode);
    const error = errorOf(() => loadPrivateKey(file));
    expect(isTradebotError(error)).toBe(true);
    expect(error).toMatchObject({ code: FamilyAErrorCode.KeyPermissions, kind: 'config' });
    expect(error.message).toContain(`chmod 600 ${file}`);
    expect(error.message).toContain(`mode 0${mode.toString(8)}`);
    for (const line of pemBody) expect(error.message).not.toContain(line);
  });

  it("checks the file a symlink points to, not the link's own mode", () => {
    const target = keyWithMode('target-644.pem', 0o644);
    const link = path.join(dir, 'link.pem');
    symlinkSync(target, link);
    expect(errorOf(() => loadPrivateKey(link))).toMatchObject({ code: FamilyAErrorCode.KeyPermissions });
  });

  it('the family A client factory refuses to build a client on such a key', () => {
    const file = keyWithMode('factory-644.pem', 0o644);
    const exchange = { apiUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9', familyA: { clientId: 'c', privateKeyFile: file, participant: 'firms/f/users/u', refreshMarginSeconds: 30 } };
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
});
