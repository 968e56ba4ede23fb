/**
 * `tradebot keygen --out <dir>`: makes the RSA 2048 key pair for family A onboarding. The private key
 * goes to `<dir>/private-key.pem` with mode 0600 (the directory is created 0700 when missing) and never
 * leaves the machine; the public key goes to `<dir>/public-key.pem` and is printed with what to send to
 * the operator. Existing keys are never overwritten (KEYGEN_WOULD_OVERWRITE, exit 2): rotating keys means
 * a new folder, a new onboarding, then removing the old public key (see the spec's key rotation steps).
 */
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { TradebotError } from '../../errors.ts';

export const PRIVATE_KEY_FILE = 'private-key.pem';
export const PUBLIC_KEY_FILE = 'public-key.pem';
export const KEY_BITS = 2048;

export interface KeyFiles {
  readonly privateKeyFile: string;
  readonly publicKeyFile: string;
  readonly publicKeyPem: string;
  /** SHA-256 of the DER SubjectPublicKeyInfo, colon-separated hex (to compare with the operator). */
  readonly fingerprint: string;
}

function wouldOverwrite(files: readonly string[]): TradebotError {
  return new TradebotError(
    'KEYGEN_WOULD_OVERWRITE',
    `refusing to overwrite ${files.join(' and ')}; keys are never replaced in place: ` +
      'choose a new --out folder (key rotation is a new onboarding)',
    { kind: 'config', details: { files } },
  );
}

export function fingerprintOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return (createHash('sha256').update(der).digest('hex').match(/../g) ?? []).join(':');
}

/** Generates the pair and writes both files; throws KEYGEN_WOULD_OVERWRITE when either exists. */
export function generateKeyFiles(outDir: string): KeyFiles {
  const dir = path.resolve(outDir);
  const privateKeyFile = path.join(dir, PRIVATE_KEY_FILE);
  const publicKeyFile = path.join(dir, PUBLIC_KEY_FILE);
  const existing = [privateKeyFile, publicKeyFile].filter((file) => existsSync(file));
  if (existing.length > 0) throw wouldOverwrite(existing);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: KEY_BITS,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(privateKeyFile, privateKey, { mode: 0o600, flag: 'wx' });
    chmodSync(privateKeyFile, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw wouldOverwrite([privateKeyFile]);
    throw new TradebotError('KEYGEN_WRITE_FAILED', `cannot write ${privateKeyFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      kind: 'config',
      cause: error,
    });
  }
  try {
    writeFileSync(publicKeyFile, publicKey, { mode: 0o644, flag: 'wx' });
  } catch (error) {
    rmSync(privateKeyFile, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw wouldOverwrite([publicKeyFile]);
    throw new TradebotError('KEYGEN_WRITE_FAILED', `cannot write ${publicKeyFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      kind: 'config',
      cause: error,
    });
  }
  return { privateKeyFile, publicKeyFile, publicKeyPem: publicKey, fingerprint: fingerprintOf(publicKey) };
}

/** What the command prints: where the files are and what to send (the public key only). */
export function onboardingText(keys: KeyFiles): string {
  return [
    `Wrote an RSA ${KEY_BITS} key pair for family A onboarding:`,
    `  private key: ${keys.privateKeyFile}  (mode 0600; keep it on this machine, never send it to anyone)`,
    `  public key:  ${keys.publicKeyFile}`,
    `  public key SHA-256 fingerprint: ${keys.fingerprint}`,
    '',
    'Send the operator the public key below, for ONE environment (development, pre-production and production',
    'each need their own key pair and onboarding). Ask them to confirm the fingerprint above.',
    "They will answer with a client id; then set in that environment's config file:",
    '  exchange:',
    '    familyA:',
    '      clientId: <the client id from the operator>',
    `      privateKeyFile: ${keys.privateKeyFile}`,
    '      participant: firms/<firm>/users/<user>',
    '',
    keys.publicKeyPem.trimEnd(),
    '',
  ].join('\n');
}

export function registerKeygenCommand(program: Command): void {
  program
    .command('keygen')
    .description('Make the RSA 2048 key pair for family A onboarding; prints the public key to send to the operator')
    .requiredOption('-o, --out <dir>', 'folder for private-key.pem (0600) and public-key.pem; existing keys are never overwritten')
    .action((options: { out: string }) => {
      process.stdout.write(onboardingText(generateKeyFiles(options.out)));
    });
}
