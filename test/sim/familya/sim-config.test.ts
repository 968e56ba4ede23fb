// The sim config sections family A and KYC add (defaults, fractional durations, validation messages), and
// the onboarding errors of `sim.clients[]` (unreadable or non-RSA key, bad allowlist, conflicting entries).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText, configSchema } from '../../../src/config/index.ts';
import { ClientRegistry, addressAllowed } from '../../../src/sim/familya/clients.ts';
import { isTradebotError } from '../../../src/errors.ts';
import type { SimClientConfig } from '../../../src/sim/config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-fa-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INSTRUMENT = '{ symbol: A, priceScale: 100, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }';
const sim = (extra: string) => {
  const root = parseConfigText(`sim:\n  instruments: [${INSTRUMENT}]\n${extra}`, configSchema, {
    env: {},
    file: path.join(dir, 'sim.yaml'),
  });
  if (root.sim === undefined) throw new Error('no sim');
  return root.sim;
};

function rsaPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

async function loadError(clients: SimClientConfig[]): Promise<string> {
  try {
    await ClientRegistry.load(clients);
  } catch (error) {
    if (isTradebotError(error)) return error.code;
    throw error;
  }
  return 'loaded';
}

describe('sim.familyA and sim.kyc', () => {
  it('have defaults', () => {
    const config = sim('');
    expect(config.familyA).toEqual({ accessTokenTtlSeconds: 180, clockSkewSeconds: 5, maxPageSize: 1000 });
    expect(config.kyc).toMatchObject({
      seed: 1,
      minStepSeconds: 2,
      maxStepSeconds: 10,
      webhookTimeoutMs: 5000,
      tickMs: 250,
      retry: { maxAttempts: 6, initialBackoffMs: 1000, maxBackoffMs: 60000 },
    });
    expect(config.kyc.duplicateProbability.toString()).toBe('0.1');
    expect(config.kyc.extraCaFile).toBeUndefined();
  });

  it('accept fractional seconds and resolve extraCaFile against the config folder', () => {
    const config = sim(
      '  familyA: { accessTokenTtlSeconds: 2.5 }\n' +
        '  kyc: { minStepSeconds: 0.5, maxStepSeconds: 1.5, extraCaFile: ca.pem }\n' +
        '  gateway: { heartbeatSeconds: 0.05 }',
    );
    expect(config.familyA.accessTokenTtlSeconds).toBe(2.5);
    expect(config.kyc.minStepSeconds).toBe(0.5);
    expect(config.gateway.heartbeatSeconds).toBe(0.05);
    expect(config.kyc.extraCaFile).toBe(path.join(dir, 'ca.pem'));
  });

  it('refuse bad values with a message that says what to write', () => {
    expect(() => sim('  kyc: { minStepSeconds: 9, maxStepSeconds: 3 }')).toThrow(/minStepSeconds must not exceed maxStepSeconds/);
    expect(() => sim('  kyc: { duplicateProbability: "1.5" }')).toThrow(/at most 1/);
    expect(() => sim('  familyA: { accessTokenTtlSeconds: 0 }')).toThrow(/greater than 0/);
    expect(() => sim('  kyc: { unknownKey: 1 }')).toThrow(/unknownKey/);
  });
});

describe('sim.clients onboarding', () => {
  const keyFile = path.join(dir, 'client.pem');
  writeFileSync(keyFile, rsaPem());
  const base: SimClientConfig = { clientId: 'c1', publicKeyFile: keyFile, scopes: ['read:marketdata'], participant: 'firms/f/users/u' };

  it('loads a client with its firm', async () => {
    const registry = await ClientRegistry.load([base]);
    expect(registry.get('c1')).toMatchObject({ clientId: 'c1', firm: 'f', scopes: ['read:marketdata'] });
  });

  it('refuses an unreadable file, a non-PEM file and a non-RSA key', async () => {
    expect(await loadError([{ ...base, publicKeyFile: path.join(dir, 'missing.pem') }])).toBe('SIM_CLIENT_KEY_UNREADABLE');
    const garbage = path.join(dir, 'garbage.pem');
    writeFileSync(garbage, 'not a key');
    expect(await loadError([{ ...base, publicKeyFile: garbage }])).toBe('SIM_CLIENT_KEY_INVALID');
    const ec = path.join(dir, 'ec.pem');
    writeFileSync(ec, generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect(await loadError([{ ...base, publicKeyFile: ec }])).toBe('SIM_CLIENT_KEY_INVALID');
  });

  it('two entries of one client are key rotation: both keys are kept; differing settings are refused', async () => {
    const second = path.join(dir, 'client2.pem');
    writeFileSync(second, rsaPem());
    const registry = await ClientRegistry.load([base, { ...base, publicKeyFile: second }]);
    expect(registry.get('c1')?.publicKeys).toHaveLength(2);
    expect(await loadError([base, { ...base, publicKeyFile: second, scopes: ['write:orders'] }])).toBe('SIM_CLIENT_CONFLICT');
  });

  it('allowlists take addresses and CIDR blocks, and match IPv4-mapped addresses', async () => {
    const registry = await ClientRegistry.load([{ ...base, allowlist: ['10.1.2.3', '192.168.0.0/16'] }]);
    const client = registry.get('c1');
    if (client === undefined) throw new Error('no client');
    expect(addressAllowed(client, '10.1.2.3')).toBe(true);
    expect(addressAllowed(client, '::ffff:192.168.4.5')).toBe(true);
    expect(addressAllowed(client, '127.0.0.1')).toBe(false);
    expect(await loadError([{ ...base, allowlist: ['not-an-ip'] }])).toBe('SIM_CLIENT_ALLOWLIST_INVALID');
    expect(await loadError([{ ...base, allowlist: ['10.0.0.0/40'] }])).toBe('SIM_CLIENT_ALLOWLIST_INVALID');
  });
});
