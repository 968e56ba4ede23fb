// `sim.grpc` reaches the gRPC server through startSim: with maxStreamsPerFirm 2 the third market data stream
// of one firm is RESOURCE_EXHAUSTED, and maxSymbolsPerStream bounds a stream's symbols. Real family A tokens
// (client assertion -> the sim's token server), raw gRPC calls on 127.0.0.1.
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema, parseConfigText } from '../../src/config/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { startSim, type RunningSim } from '../../src/sim/simulator.ts';
import { GrpcChannel, bearerMetadata } from '../../src/exchange/grpc/index.ts';
import { grpcCodecs, methodRef } from '../../src/exchange/grpc/protocol/index.ts';
import { runToEnd } from './grpc/helpers/calls.ts';

const MARKET_DATA = methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription');
const SYMBOL = 'RAIN-NYC-2026-12-01';
const SYMBOL2 = 'FED-CUT-2026-12';
const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const marketRequest = (symbols: string[], snapshotOnly = false) =>
  grpcCodecs.marketDataSubscriptionRequest.encode({ symbols, depth: 0, snapshotOnly });

function yaml(dir: string, grpc: string): string {
  return `
logging: { level: silent }
sim:
  grpc: { ${grpc} }
  users:
    - { username: alice, password: Demo-Alice-Pass-2026, participant: firms/demo/users/alice, accounts: [firms/demo/accounts/alice-main] }
  clients:
    - { clientId: bot, publicKeyFile: ${path.join(dir, 'bot.pub.pem')}, participant: firms/demo/users/alice, scopes: [read:marketdata] }
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
    - { symbol: ${SYMBOL2}, priceScale: 100, tickSize: "0.01", priceLimits: { low: "0.01", high: "0.99" } }
  activity: { enabled: false }
`;
}

interface Rig {
  sim: RunningSim;
  channel: GrpcChannel;
  token: string;
  close(): Promise<void>;
}

async function start(grpc: string): Promise<Rig> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-simgrpc-'));
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(path.join(dir, 'bot.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const config = parseConfigText(yaml(dir, grpc), configSchema, { env: {}, file: path.join(dir, 'sim.yaml') });
  if (config.sim === undefined) throw new Error('no sim section');
  const clock = { now: () => T0 };
  const sim = await startSim(config.sim, { logger: silentLogger(), clock, activityTimer: false, kycTimer: false });
  const channel = new GrpcChannel({ address: sim.ready.grpc });
  const token = await accessToken(sim, privateKey, T0);
  return {
    sim,
    channel,
    token,
    async close() {
      channel.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function accessToken(sim: RunningSim, key: KeyObject, nowMs: number): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  const assertion = await new SignJWT({ iss: 'bot', sub: 'bot', aud: sim.tokenEndpoint, iat: now, exp: now + 300, jti: randomUUID() })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .sign(key);
  const response = await fetch(sim.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: 'bot',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      audience: sim.ready.api,
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`token refused: ${response.status} ${JSON.stringify(body)}`);
  return String(body['access_token']);
}

/** Opens a live market data stream and resolves once its first message (the snapshot) arrived. */
function openLive(rig: Rig): Promise<{ unsubscribe(): void }> {
  return new Promise((resolve, reject) => {
    const sub = rig.channel.serverStream(MARKET_DATA, marketRequest([SYMBOL]), bearerMetadata(rig.token)).subscribe({
      next: () => resolve(sub),
      error: (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
    });
  });
}

describe('sim.grpc', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('maxStreamsPerFirm 2: the third market data stream of the firm is RESOURCE_EXHAUSTED', async () => {
    rig = await start('maxStreamsPerFirm: 2');
    expect(rig.sim.config.grpc).toMatchObject({ maxStreamsPerFirm: 2, maxSymbolsPerStream: 1000, replayBufferSize: 10_000 });
    const open = [await openLive(rig), await openLive(rig)];
    const third = await runToEnd(rig.channel, MARKET_DATA, marketRequest([SYMBOL]), rig.token);
    expect(third.error?.code).toBe('GRPC_RESOURCE_EXHAUSTED');
    for (const sub of open) sub.unsubscribe();
  });

  it('maxSymbolsPerStream 1: a stream naming two symbols is INVALID_ARGUMENT, one symbol is served', async () => {
    rig = await start('maxSymbolsPerStream: 1');
    const two = await runToEnd(rig.channel, MARKET_DATA, marketRequest([SYMBOL, SYMBOL2], true), rig.token);
    expect(two.error?.code).toBe('GRPC_INVALID_ARGUMENT');
    const one = await runToEnd(rig.channel, MARKET_DATA, marketRequest([SYMBOL], true), rig.token);
    expect(one.error).toBeUndefined();
    expect(one.messages.length).toBeGreaterThan(0);
  });

  it('defaults: 20 streams per firm, 1000 symbols; an unknown key is a config error with its path', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-simgrpc-'));
    try {
      const config = parseConfigText(yaml(dir, ''), configSchema, { env: {}, file: path.join(dir, 'sim.yaml') });
      expect(config.sim?.grpc).toEqual({
        maxStreamsPerFirm: 20,
        maxSymbolsPerStream: 1000,
        replayBufferSize: 10_000,
        maxQueuedMessages: 100_000,
        maxPageSize: 1000,
      });
      expect(() => parseConfigText(yaml(dir, 'maxStreamsPerFrim: 5'), configSchema, { env: {}, file: path.join(dir, 'sim.yaml') })).toThrow(
        /sim\.grpc\.maxStreamsPerFrim: unknown key; did you mean "maxStreamsPerFirm"\?/,
      );
      expect(() => parseConfigText(yaml(dir, 'maxStreamsPerFirm: 0'), configSchema, { env: {}, file: path.join(dir, 'sim.yaml') })).toThrow(
        /sim\.grpc\.maxStreamsPerFirm/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
