/**
 * Builds a family A client (through createFamilyAClient, as production does) against a fake exchange,
 * with fast retries and an injected clock.
 */
import { instrumentScales } from '../../../../src/domain/index.ts';
import type { ExchangeConfig } from '../../../../src/exchange/config.ts';
import { MapInstrumentCatalog, createFamilyAClient } from '../../../../src/exchange/familya/index.ts';
import type { CreateFamilyAOptions, FamilyAStack } from '../../../../src/exchange/familya/index.ts';

export const PARTICIPANT = 'firms/f1/users/u1';

export function exchangeConfig(apiUrl: string, authUrl: string, clientId: string, privateKeyFile: string): ExchangeConfig {
  return {
    apiUrl,
    authUrl,
    gatewayUrl: 'http://127.0.0.1:1',
    familyA: { clientId, privateKeyFile, participant: PARTICIPANT, refreshMarginSeconds: 30 },
  };
}

/** A catalog knowing EVT-A (cents, whole contracts) and EVT-B (4 price decimals, 2 quantity decimals). */
export function knownCatalog(): MapInstrumentCatalog {
  const catalog = new MapInstrumentCatalog();
  catalog.set('EVT-A', instrumentScales(100, 1));
  catalog.set('EVT-B', instrumentScales(10_000, 100));
  return catalog;
}

export function makeClient(config: ExchangeConfig, options: CreateFamilyAOptions = {}): FamilyAStack {
  return createFamilyAClient(config, { retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...options });
}
