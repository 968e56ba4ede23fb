/**
 * What a live run needs, decided from the config before anything connects: the venue orders go to, the
 * transport of each stream, and so which clients must exist (the gateway login, the family A client, the gRPC
 * channel). A combination the config cannot serve (NDJSON streams without gateway credentials, gRPC without an
 * address) is a config problem naming the key and the fix, never a silent switch to another transport.
 * `tradebot config check` reports the same problems.
 */
import type { TradebotConfig } from '../../config/index.ts';
import { ConfigError, type ConfigProblem } from '../../config/errors.ts';
import type { StreamTransports } from '../config.ts';

export interface RunPlan {
  readonly venue: 'gateway' | 'familyA';
  readonly streams: StreamTransports;
  /** The embedded exchange (a `sim` section and no `exchange` section). */
  readonly embedded: boolean;
  /** A gateway login is needed: the gateway venue, or a stream over the gateway's NDJSON. */
  readonly needsGateway: boolean;
  /** A family A client is needed: the family A venue, gRPC streams (their token), reference data in an environment. */
  readonly needsFamilyA: boolean;
  readonly needsGrpc: boolean;
}

const STREAM_NAMES = { marketData: 'market data', orders: 'order updates' } as const;

export function runPlan(config: TradebotConfig): RunPlan {
  const { venue, streams } = config.bot;
  const embedded = config.exchange === undefined;
  const ndjson = streams.marketData === 'ndjson' || streams.orders === 'ndjson';
  const needsGrpc = streams.marketData === 'grpc' || streams.orders === 'grpc';
  return {
    venue,
    streams,
    embedded,
    needsGateway: venue === 'gateway' || ndjson,
    needsFamilyA: venue === 'familyA' || needsGrpc || !embedded,
    needsGrpc,
  };
}

/** Every reason the config cannot run as written, each with the key to change and how. */
export function runPlanProblems(config: TradebotConfig): ConfigProblem[] {
  const exchange = config.exchange;
  if (exchange === undefined) {
    if (config.sim === undefined)
      return [{ path: '', message: 'neither an exchange section (an environment) nor a sim section (the embedded exchange): add one' }];
    return []; // the embedded exchange serves every venue and transport (the bot gets a gateway user and a family A client)
  }
  const plan = runPlan(config);
  const problems: ConfigProblem[] = [];
  if (exchange.familyA === undefined) {
    problems.push({
      path: 'exchange.familyA',
      message:
        'is required against an environment: reference data (price scales, ticks) comes from the /v1 API; ' +
        'give clientId, privateKeyFile and participant',
    });
  }
  if (exchange.gateway === undefined) {
    if (plan.venue === 'gateway') {
      problems.push({
        path: 'exchange.gateway',
        message:
          'is required with bot.venue: gateway (orders go through the trading gateway): ' +
          'give username, password (${ENV_VAR}) and, with MFA, mfaSecret; or set bot.venue: familyA',
      });
    }
    for (const stream of ['marketData', 'orders'] as const) {
      if (plan.streams[stream] !== 'ndjson' || plan.venue === 'gateway') continue;
      problems.push({
        path: `bot.streams.${stream}`,
        message:
          `ndjson streams ${STREAM_NAMES[stream]} from the trading gateway, which needs a gateway login, ` +
          `and exchange.gateway is missing: set bot.streams.${stream}: grpc, or add exchange.gateway (username, password)`,
      });
    }
  }
  for (const stream of ['marketData', 'orders'] as const) {
    if (plan.streams[stream] !== 'grpc' || exchange.grpcAddress !== undefined) continue;
    problems.push({
      path: `bot.streams.${stream}`,
      message:
        `grpc streams ${STREAM_NAMES[stream]} from the exchange's gRPC endpoint, and exchange.grpcAddress is missing: ` +
        `set exchange.grpcAddress (host:port), or set bot.streams.${stream}: ndjson (the gateway's streams)`,
    });
  }
  return problems;
}

/** Throws one ConfigError with every problem (CONFIG_INVALID, exit code 2 in the CLI). */
export function assertRunPlan(config: TradebotConfig, file?: string): RunPlan {
  const problems = runPlanProblems(config);
  if (problems.length > 0) throw new ConfigError(problems, file);
  return runPlan(config);
}
