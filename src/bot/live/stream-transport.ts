/**
 * The stream transports of a live run: the gateway's NDJSON streams or the exchange's gRPC streams
 * authenticated with a family A token, chosen per stream (`bot.streams`). Both give the same Observable event
 * types, so the Venue and the pipeline do not change. With the embedded sim, gRPC (or the family A venue)
 * onboards an ephemeral family A client for the bot: a fresh RSA key pair in a private temp folder, its public
 * key added to `sim.clients`. The gRPC channel uses TLS unless the address is on loopback (the simulator).
 */
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { ExchangeConfig } from '../../exchange/config.ts';
import type { SimConfig } from '../../sim/config.ts';
import { rsaKeyPairSync } from '../../sim/familya/rsa-key-pair.ts';
import type { Instrument } from '../../domain/index.ts';
import { credentials as grpcCredentials } from '@grpc/grpc-js';
import { createFamilyAClient, type FamilyAClient, type FamilyAStack } from '../../exchange/familya/index.ts';
import { GrpcExchangeClient, tokenSourceOf } from '../../exchange/grpc/index.ts';
import { instrumentCatalog, type GatewayClient } from '../../exchange/gateway/index.ts';
import type { StreamTransports } from '../config.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
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
  const { publicKeyPem: publicKey, privateKeyPem: privateKey } = rsaKeyPairSync();
  const publicKeyFile = path.join(dir, 'public-key.pem');
  const privateKeyFile = path.join(dir, 'private-key.pem');
  writeFileSync(publicKeyFile, publicKey);
  writeFileSync(privateKeyFile, privateKey, { mode: 0o600 });
  const client = {
    clientId: BOT_CLIENT_ID,
    publicKeyFile,
    participant,
    scopes: [
      'read:marketdata',
      'read:l2marketdata',
      'read:instruments',
      'read:orders',
      'write:orders',
      'read:positions',
      'read:dropcopy',
      'read:reports',
    ],
  } as SimConfig['clients'][number];
  return {
    sim: { ...sim, clients: [...sim.clients, client] },
    privateKeyFile,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A channel on loopback is the simulator's plain-text endpoint; anything else is the exchange's, over TLS. */
function isLoopbackAddress(address: string): boolean {
  return /^(127\.0\.0\.1|localhost|\[::1\]):[0-9]+$/.test(address);
}

/** gRPC streams authenticated with the token of an existing family A client stack (the caller closes that stack). */
export function grpcStreamsOf(
  address: string,
  familyA: FamilyAStack,
  instruments: readonly Instrument[],
  logger: Logger,
): Omit<StreamSources, 'familyA'> {
  const client = new GrpcExchangeClient({
    address,
    getToken: tokenSourceOf(familyA.tokens),
    wake: familyA.tokens.tokens$,
    instruments: instrumentCatalog(instruments),
    ...(isLoopbackAddress(address) ? {} : { credentials: grpcCredentials.createSsl() }),
    logger: logger.child({ component: 'grpc' }),
  });
  return {
    marketData: (symbols) => client.marketData$({ symbols: [...symbols], depth: 10 }),
    orderUpdates: (accounts) => client.orderUpdates$({ accounts: [...accounts] }),
    close: async () => client.close(),
  };
}

export function grpcStreams(exchange: ExchangeConfig, instruments: readonly Instrument[], logger: Logger): StreamSources {
  if (exchange.grpcAddress === undefined)
    throw new TradebotError(
      'RUN_CONFIG_INCOMPLETE',
      'bot.streams is grpc but exchange.grpcAddress is missing: give host:port of the gRPC endpoint',
      { kind: 'config' },
    );
  if (exchange.familyA === undefined)
    throw new TradebotError(
      'RUN_CONFIG_INCOMPLETE',
      'bot.streams is grpc: gRPC streams authenticate with a family A token, so exchange.familyA is required',
      { kind: 'config' },
    );
  const familyA = createFamilyAClient(exchange, { logger });
  const grpc = grpcStreamsOf(exchange.grpcAddress, familyA, instruments, logger);
  return {
    familyA: familyA.client,
    marketData: grpc.marketData,
    orderUpdates: grpc.orderUpdates,
    close: async () => {
      await grpc.close();
      await familyA.client.close();
    },
  };
}

/** The gateway's NDJSON streams, as stream sources. */
export function ndjsonStreamsOf(gateway: GatewayClient): Pick<StreamSources, 'marketData' | 'orderUpdates'> {
  return {
    marketData: (symbols) => gateway.marketData$({ symbols: [...symbols], depth: 10 }),
    orderUpdates: (accounts) => gateway.orderUpdates$({ accounts: [...accounts] }),
  };
}

/** Each stream from the transport the plan names; a transport the plan needs but was not opened is a bug, thrown. */
export function pickStreams(
  transports: StreamTransports,
  sources: {
    ndjson: Pick<StreamSources, 'marketData' | 'orderUpdates'> | undefined;
    grpc: Pick<StreamSources, 'marketData' | 'orderUpdates'> | undefined;
  },
): Pick<StreamSources, 'marketData' | 'orderUpdates'> {
  const source = (transport: 'ndjson' | 'grpc', stream: string) => {
    const chosen = sources[transport];
    if (chosen === undefined)
      throw new TradebotError('RUN_TRANSPORT_MISSING', `the ${stream} stream wants ${transport} but no ${transport} client was opened`, {
        kind: 'internal',
      });
    return chosen;
  };
  const market = source(transports.marketData, 'market data');
  const orders = source(transports.orders, 'order');
  return { marketData: (symbols) => market.marketData(symbols), orderUpdates: (accounts) => orders.orderUpdates(accounts) };
}
