/**
 * The per-config choice of stream transport for a live run: the gateway's NDJSON streams (default) or the
 * exchange's gRPC streams authenticated with a family A token. Both give the same Observable event types,
 * so the Venue and the pipeline do not change. With the embedded sim, `grpc` onboards an ephemeral family A
 * client for the bot: a fresh RSA key pair in a private temp folder, its public key added to `sim.clients`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { ExchangeConfig } from '../../exchange/config.ts';
import type { SimConfig } from '../../sim/config.ts';
import type { Instrument } from '../../domain/index.ts';
import { createFamilyAClient, type FamilyAClient } from '../../exchange/familya/index.ts';
import { GrpcExchangeClient, tokenSourceOf } from '../../exchange/grpc/index.ts';
import { instrumentCatalog } from '../../exchange/gateway/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../venue.ts';
import { TradebotError } from '../../errors.ts';

export interface StreamSources {
  /** The family A client the gRPC token comes from (the family A venue trades through it too). */
  familyA: FamilyAClient;
  marketData(symbols: readonly string[]): Observable<MarketDataEvent>;
  orderUpdates(accounts: readonly string[]): Observable<OrderStreamEvent>;
  close(): Promise<void>;
}

export const BOT_CLIENT_ID = 'tradebot-embedded-bot';

/** Adds an ephemeral API client for the bot to a sim config; returns the private key file and cleanup. */
export function onboardEphemeralClient(sim: SimConfig, participant: string): { sim: SimConfig; privateKeyFile: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-bot-key-'));
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyFile = path.join(dir, 'public-key.pem');
  const privateKeyFile = path.join(dir, 'private-key.pem');
  writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const client = {
    clientId: BOT_CLIENT_ID,
    publicKeyFile,
    participant,
    scopes: ['read:marketdata', 'read:l2marketdata', 'read:instruments', 'read:orders', 'write:orders', 'read:positions', 'read:dropcopy', 'read:reports'],
  } as SimConfig['clients'][number];
  return { sim: { ...sim, clients: [...sim.clients, client] }, privateKeyFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function grpcStreams(exchange: ExchangeConfig, instruments: readonly Instrument[], logger: Logger): StreamSources {
  if (exchange.grpcAddress === undefined) throw new TradebotError('RUN_CONFIG_INCOMPLETE', 'bot.streams is grpc but exchange.grpcAddress is missing: give host:port of the gRPC endpoint', { kind: 'config' });
  if (exchange.familyA === undefined) throw new TradebotError('RUN_CONFIG_INCOMPLETE', 'bot.streams is grpc: gRPC streams authenticate with a family A token, so exchange.familyA is required', { kind: 'config' });
  const familyA = createFamilyAClient(exchange, { logger });
  const client = new GrpcExchangeClient({ address: exchange.grpcAddress, getToken: tokenSourceOf(familyA.tokens), instruments: instrumentCatalog(instruments), logger: logger.child({ component: 'grpc' }) });
  return {
    familyA: familyA.client,
    marketData: (symbols) => client.marketData$({ symbols: [...symbols], depth: 10 }),
    orderUpdates: (accounts) => client.orderUpdates$({ accounts: [...accounts] }),
    close: async () => {
      client.close();
      await familyA.client.close();
    },
  };
}
