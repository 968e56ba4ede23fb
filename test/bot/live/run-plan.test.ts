/**
 * `bot.streams` per stream and the run plan: the shorthand sets both streams, a mapping sets each, a missing
 * stream takes the venue's default (ndjson with the gateway, grpc with family A), bad values and unknown keys
 * name their path; against an environment, a combination the config cannot serve is a config problem naming
 * the key and the fix (never a silent switch), and `pickStreams` routes each stream to the transport asked for.
 */
import { NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, type TradebotConfig } from '../../../src/config/index.ts';
import { assertRunPlan, runPlan, runPlanProblems } from '../../../src/bot/live/run-plan.ts';
import { pickStreams } from '../../../src/bot/live/stream-transport.ts';

const SIM = `
sim:
  users: [{ username: alice, password: Demo-Alice-Pass-2026, participant: firms/demo/users/alice,
    accounts: [firms/demo/accounts/alice-main] }]
  instruments:
    - { symbol: RAIN, description: rain, eventGroup: W, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
`;

function exchangeYaml(parts: { gateway?: boolean; grpc?: boolean }): string {
  return `
exchange:
  apiUrl: https://api.dev.exchange.example
  authUrl: https://auth.dev.exchange.example
  gatewayUrl: https://rest.dev.exchange.example
${parts.grpc === true ? '  grpcAddress: grpc.dev.exchange.example:443\n' : ''}  familyA: { clientId: c1,
    privateKeyFile: keys/private-key.pem, participant: firms/acme/users/bot }
${parts.gateway === true ? '  gateway: { username: bot, password: not-a-real-password-42 }\n' : ''}`;
}

const bot = (body: string) => `bot:\n  params: { symbols: [RAIN] }\n${body}`;

function problemsOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('bot.streams', () => {
  it('is ndjson for both streams with the gateway venue, grpc for both with the family A venue, when absent', () => {
    expect(parseConfig(SIM + bot('')).bot.streams).toEqual({ marketData: 'ndjson', orders: 'ndjson' });
    expect(parseConfig(SIM + bot('  venue: familyA\n')).bot.streams).toEqual({ marketData: 'grpc', orders: 'grpc' });
  });

  it('takes one transport for both streams as shorthand, or one per stream (a missing one takes the venue default)', () => {
    expect(parseConfig(SIM + bot('  streams: grpc\n')).bot.streams).toEqual({ marketData: 'grpc', orders: 'grpc' });
    expect(parseConfig(SIM + bot('  streams: { marketData: grpc, orders: ndjson }\n')).bot.streams).toEqual({
      marketData: 'grpc',
      orders: 'ndjson',
    });
    expect(parseConfig(SIM + bot('  streams: { orders: grpc }\n')).bot.streams).toEqual({ marketData: 'ndjson', orders: 'grpc' });
    expect(parseConfig(SIM + bot('  venue: familyA\n  streams: { orders: ndjson }\n')).bot.streams).toEqual({
      marketData: 'grpc',
      orders: 'ndjson',
    });
  });

  it('names the path of a bad transport, an unknown stream and a wrong kind of value', () => {
    expect(problemsOf(() => parseConfig(SIM + bot('  streams: websocket\n')))).toEqual([
      {
        path: 'bot.streams',
        message: expect.stringMatching(
          /expected ndjson or grpc for both streams, or a mapping \{ marketData: .*, orders: .* \}, got "websocket"/,
        ) as unknown as string,
      },
    ]);
    expect(problemsOf(() => parseConfig(SIM + bot('  streams: { marketData: udp, trades: grpc }\n')))).toEqual([
      { path: 'bot.streams.marketData', message: 'expected ndjson or grpc, got "udp"' },
      { path: 'bot.streams.trades', message: 'unknown stream; the streams are marketData and orders' },
    ]);
  });
});

describe('run plan', () => {
  const config = (yaml: string): TradebotConfig => parseConfig(yaml);

  it('against the embedded exchange, every venue and transport combination is possible', () => {
    for (const body of [
      '  streams: { marketData: grpc, orders: ndjson }\n',
      '  venue: familyA\n  streams: ndjson\n',
      '  venue: familyA\n',
    ]) {
      expect(runPlanProblems(config(SIM + bot(body)))).toEqual([]);
    }
    const plan = runPlan(config(SIM + bot('  venue: familyA\n  streams: { orders: ndjson }\n')));
    expect(plan).toMatchObject({ embedded: true, needsGateway: true, needsFamilyA: true, needsGrpc: true });
  });

  it('family A venue with NDJSON streams and no gateway login: a problem at the stream key saying how to fix it', () => {
    const problems = problemsOf(() =>
      assertRunPlan(config(exchangeYaml({ grpc: true }) + bot('  venue: familyA\n  streams: { marketData: grpc, orders: ndjson }\n'))),
    );
    expect(problems).toEqual([
      {
        path: 'bot.streams.orders',
        message: expect.stringContaining(
          'exchange.gateway is missing: set bot.streams.orders: grpc, or add exchange.gateway',
        ) as unknown as string,
      },
    ]);
  });

  it('family A venue over gRPC streams needs no gateway login at all', () => {
    const c = config(exchangeYaml({ grpc: true }) + bot('  venue: familyA\n'));
    expect(runPlanProblems(c)).toEqual([]);
    expect(runPlan(c)).toMatchObject({ needsGateway: false, needsGrpc: true, needsFamilyA: true });
  });

  it('a gRPC stream without exchange.grpcAddress, and the gateway venue without a login, are named with their fixes', () => {
    const problems = problemsOf(() => assertRunPlan(config(exchangeYaml({}) + bot('  streams: { marketData: grpc }\n'))));
    expect(problems.map((p) => p.path)).toEqual(['exchange.gateway', 'bot.streams.marketData']);
    expect(problems[0]?.message).toMatch(/required with bot.venue: gateway/);
    expect(problems[1]?.message).toMatch(
      /exchange.grpcAddress is missing: set exchange.grpcAddress \(host:port\), or set bot.streams.marketData: ndjson/,
    );
  });

  it('the environment templates as shipped (gateway venue, NDJSON streams, a gateway login) have no problem', () => {
    expect(runPlanProblems(config(exchangeYaml({ gateway: true }) + bot('')))).toEqual([]);
    expect(runPlanProblems(config(exchangeYaml({ gateway: true }) + bot('  venue: familyA\n  streams: ndjson\n')))).toEqual([]);
  });
});

describe('pickStreams', () => {
  it('takes market data and order updates each from the transport the plan names', () => {
    const calls: string[] = [];
    const spy = (name: string) => ({
      marketData: () => (calls.push(`${name}:market`), NEVER),
      orderUpdates: () => (calls.push(`${name}:orders`), NEVER),
    });
    const streams = pickStreams({ marketData: 'grpc', orders: 'ndjson' }, { ndjson: spy('ndjson'), grpc: spy('grpc') });
    streams.marketData(['RAIN']);
    streams.orderUpdates(['a']);
    const reverse = pickStreams({ marketData: 'ndjson', orders: 'grpc' }, { ndjson: spy('ndjson'), grpc: spy('grpc') });
    reverse.marketData(['RAIN']);
    reverse.orderUpdates(['a']);
    expect(calls).toEqual(['grpc:market', 'ndjson:orders', 'ndjson:market', 'grpc:orders']);
  });

  it('a transport the plan wants but nobody opened is an error, not a fallback to the other one', () => {
    expect(() =>
      pickStreams(
        { marketData: 'grpc', orders: 'ndjson' },
        { ndjson: { marketData: () => NEVER, orderUpdates: () => NEVER }, grpc: undefined },
      ),
    ).toThrow(/market data stream wants grpc/);
  });
});
