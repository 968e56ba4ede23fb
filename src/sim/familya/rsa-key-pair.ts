/**
 * RSA key pairs whose KeyObjects share no lock with the job that generated them.
 *
 * Node 20 hangs, now and then, when a freshly generated key is exported as a JWK: the export holds the key's
 * mutex while it allocates the JWK's strings, an allocation can start a garbage collection, and the
 * collection may destroy the finished key-generation job, whose destructor takes the same mutex (seen as a
 * test worker stuck for good in `~KeyGenJob` under `ExportJWKRsaKey`). Here the generation job encodes
 * the pair as PEM itself, and the KeyObjects handed out are parsed from that PEM: new keys with locks of
 * their own, which the job's destruction never touches.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  generateKeyPairSync,
  type KeyObject,
  type RSAKeyPairOptions,
} from 'node:crypto';
import { promisify } from 'node:util';

export interface RsaKeyPair {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The public key as SPKI PEM. */
  readonly publicKeyPem: string;
  /** The private key as unencrypted PKCS#8 PEM. */
  readonly privateKeyPem: string;
}

const generatePem = promisify(generateKeyPair);
/** The generation job encodes the pair itself: SPKI and unencrypted PKCS#8 PEM. */
const pemOptions = (modulusLength: number): RSAKeyPairOptions<'pem', 'pem'> => ({
  modulusLength,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

function fromPem(publicKeyPem: string, privateKeyPem: string): RsaKeyPair {
  return { privateKey: createPrivateKey(privateKeyPem), publicKey: createPublicKey(publicKeyPem), publicKeyPem, privateKeyPem };
}

/** A new RSA key pair, generated off the main thread. */
export async function rsaKeyPair(modulusLength = 2048): Promise<RsaKeyPair> {
  const { publicKey, privateKey } = await generatePem('rsa', pemOptions(modulusLength));
  return fromPem(publicKey, privateKey);
}

/** rsaKeyPair, synchronously (set-up code: tests, the embedded bot's key files). */
export function rsaKeyPairSync(modulusLength = 2048): RsaKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', pemOptions(modulusLength));
  return fromPem(publicKey, privateKey);
}
