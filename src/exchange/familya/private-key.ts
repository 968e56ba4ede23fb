/**
 * Loads the family A private key from the PEM file named in config (`exchange.familyA.privateKeyFile`):
 * an unencrypted RSA private key (PKCS#8 or PKCS#1) of at least 2048 bits, as `tradebot keygen` writes.
 * The file must not be accessible to group or others (mode 0600, as `tradebot keygen` writes it): the bot
 * refuses to start otherwise (src/exchange/auth/secret-file.ts: checked on the opened file, on POSIX systems).
 * The key stays a KeyObject in memory; errors name the file and what to fix, never the file's contents.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { permissionsFix, readSecretFile } from '../auth/secret-file.ts';
import { FamilyAError, FamilyAErrorCode } from './errors.ts';

export const MIN_RSA_BITS = 2048;

/** Parses PEM text into an RSA private KeyObject; `source` names it in errors (a path, never the text). */
export function parsePrivateKey(pem: string, source: string): KeyObject {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(pem)) {
    throw new FamilyAError(
      FamilyAErrorCode.KeyInvalid,
      `private key ${source}: it is encrypted; tradebot needs an unencrypted key file protected by file permissions (mode 0600)`,
      {
        details: { source },
      },
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new FamilyAError(
      FamilyAErrorCode.KeyInvalid,
      `private key ${source}: it is not a PEM private key (expected "-----BEGIN PRIVATE KEY-----", as written by \`tradebot keygen\`)`,
      {
        details: { source },
      },
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa') {
    throw new FamilyAError(
      FamilyAErrorCode.KeyInvalid,
      `private key ${source}: expected an RSA key (RS256), got ${key.asymmetricKeyType ?? 'an unknown type'}`,
      {
        details: { source, type: key.asymmetricKeyType },
      },
    );
  }
  if (bits < MIN_RSA_BITS) {
    throw new FamilyAError(
      FamilyAErrorCode.KeyInvalid,
      `private key ${source}: RSA key of ${bits} bits, at least ${MIN_RSA_BITS} are needed; run \`tradebot keygen\``,
      {
        details: { source, bits },
      },
    );
  }
  return key;
}

/**
 * Reads and parses the key file: FAMILY_A_KEY_UNREADABLE when it cannot be read, FAMILY_A_KEY_PERMISSIONS
 * when group or others have any access to it (mode & 0o077), FAMILY_A_KEY_INVALID when it is no usable key.
 */
export function loadPrivateKey(file: string): KeyObject {
  const pem = readSecretFile(file, (problem) =>
    problem.kind === 'permissions'
      ? new FamilyAError(FamilyAErrorCode.KeyPermissions, `private key ${file}: ${permissionsFix(file, problem.mode)}`, {
          details: { file, mode: problem.mode },
        })
      : unreadable(file, problem.systemCode),
  );
  return parsePrivateKey(pem, file);
}

function unreadable(file: string, code: string | undefined): FamilyAError {
  const reason =
    code === 'ENOENT'
      ? 'file not found (run `tradebot keygen --out <dir>` and point privateKeyFile at it)'
      : code === 'EACCES'
        ? 'permission denied'
        : `cannot read it (${code ?? 'error'})`;
  return new FamilyAError(FamilyAErrorCode.KeyUnreadable, `private key ${file}: ${reason}`, { details: { file, systemCode: code } });
}

/** The public half as SPKI PEM (what onboarding shares). */
export function publicKeyPemOf(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
}
