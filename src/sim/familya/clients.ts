/**
 * The family A API clients onboarded in the simulator (`sim.clients[]`): each client id with its RSA
 * public key(s) read from PEM files, granted scopes, default participant (whose firm the client acts
 * for) and optional address allowlist. Several entries with the same client id model key rotation (the
 * operator adds the new public key before removing the old): their other settings must agree.
 */
import { readFile } from 'node:fs/promises';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { SimClientConfig } from '../config.ts';
import { TradebotError } from '../../errors.ts';
import { firmOf } from '../gateway/user-store.ts';

export interface SimApiClient {
  clientId: string;
  publicKeys: KeyObject[];
  scopes: readonly string[];
  participant: string;
  firm: string;
  /** undefined: every address may call /v1 with this client's tokens. */
  allowlist: BlockList | undefined;
}

function configError(code: string, message: string, cause?: unknown): TradebotError {
  return new TradebotError(code, message, { kind: 'config', cause });
}

async function loadPublicKey(file: string, clientId: string): Promise<KeyObject> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    throw configError(
      'SIM_CLIENT_KEY_UNREADABLE',
      `sim.clients ${clientId}: cannot read publicKeyFile ${file}; point it at the client's PEM public key`,
      error,
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw configError(
      'SIM_CLIENT_KEY_INVALID',
      `sim.clients ${clientId}: ${file} is not a PEM public key (expected "-----BEGIN PUBLIC KEY-----")`,
      error,
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw configError(
      'SIM_CLIENT_KEY_INVALID',
      `sim.clients ${clientId}: ${file} holds a ${key.asymmetricKeyType ?? 'non-RSA'} key; ` +
        'family A assertions are RS256, so onboard an RSA public key',
    );
  }
  return key;
}

/** Normalizes `::ffff:127.0.0.1` to `127.0.0.1` so IPv4 entries match IPv4-mapped socket addresses. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

function buildAllowlist(entries: readonly string[], clientId: string): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefixText] = entry.split('/');
    const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    if (family === undefined)
      throw configError(
        'SIM_CLIENT_ALLOWLIST_INVALID',
        `sim.clients ${clientId}: allowlist entry "${entry}" is not an IP address or CIDR block (e.g. 10.0.0.0/8)`,
      );
    if (prefixText === undefined) {
      list.addAddress(address, family);
      continue;
    }
    const prefix = Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 'ipv4' ? 32 : 128)) {
      throw configError('SIM_CLIENT_ALLOWLIST_INVALID', `sim.clients ${clientId}: allowlist entry "${entry}" has an invalid prefix length`);
    }
    list.addSubnet(address, prefix, family);
  }
  return list;
}

export function addressAllowed(client: SimApiClient, remoteAddress: string): boolean {
  if (client.allowlist === undefined) return true;
  const address = normalizeAddress(remoteAddress);
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  return family !== undefined && client.allowlist.check(address, family);
}

function sameSettings(a: SimClientConfig, b: SimClientConfig): boolean {
  const list = (values: readonly string[] | undefined) => (values === undefined ? '' : [...values].sort().join(' '));
  return (
    a.participant === b.participant &&
    list(a.scopes) === list(b.scopes) &&
    list(a.allowlist) === list(b.allowlist) &&
    (a.allowlist === undefined) === (b.allowlist === undefined)
  );
}

export class ClientRegistry {
  private constructor(private readonly clients: ReadonlyMap<string, SimApiClient>) {}

  static async load(configs: readonly SimClientConfig[]): Promise<ClientRegistry> {
    const byId = new Map<string, SimApiClient>();
    const firstConfig = new Map<string, SimClientConfig>();
    for (const config of configs) {
      const key = await loadPublicKey(config.publicKeyFile, config.clientId);
      const seen = firstConfig.get(config.clientId);
      const existing = byId.get(config.clientId);
      if (seen !== undefined && existing !== undefined) {
        if (!sameSettings(seen, config)) {
          throw configError(
            'SIM_CLIENT_CONFLICT',
            `sim.clients: client ${config.clientId} appears twice with different scopes, participant or allowlist; ` +
              'entries of one client (key rotation) must agree',
          );
        }
        existing.publicKeys.push(key);
        continue;
      }
      firstConfig.set(config.clientId, config);
      byId.set(config.clientId, {
        clientId: config.clientId,
        publicKeys: [key],
        scopes: [...new Set(config.scopes)],
        participant: config.participant,
        firm: firmOf(config.participant),
        allowlist: config.allowlist === undefined ? undefined : buildAllowlist(config.allowlist, config.clientId),
      });
    }
    return new ClientRegistry(byId);
  }

  get(clientId: string): SimApiClient | undefined {
    return this.clients.get(clientId);
  }

  all(): SimApiClient[] {
    return [...this.clients.values()];
  }
}
