/**
 * Assembles the family A client from the `exchange` config section: an HttpTransport per origin (API and
 * token server), each rate limited; the API transport also retried (idempotent calls only); the private
 * key read from `familyA.privateKeyFile`; the TokenManager; the client. One token bucket is shared by both
 * transports (the venue's limit is per firm).
 */
import type { Logger } from 'pino';
import type { SchedulerLike } from 'rxjs';
import type { ExchangeConfig } from '../config.ts';
import { HttpTransport, TokenBucket, withRateLimit, withRetry } from '../transport/index.ts';
import type { RetryOptions, TokenBucketOptions } from '../transport/index.ts';
import { FamilyAClient } from './client.ts';
import type { InstrumentCatalog } from './instruments.ts';
import { FamilyAError, FamilyAErrorCode } from './errors.ts';
import { loadPrivateKey } from './private-key.ts';
import { TokenManager } from './token-manager.ts';

export interface CreateFamilyAOptions {
  readonly logger?: Logger;
  /** Local clock for token expiry and assertion times, ms. Default Date.now. */
  readonly now?: () => number;
  readonly catalog?: InstrumentCatalog;
  readonly autoLoadInstruments?: boolean;
  /** Per-call deadline, ms. Default 15 000. */
  readonly timeoutMs?: number;
  readonly rateLimit?: TokenBucketOptions;
  readonly retry?: RetryOptions;
  /** Timers of the transports (deadlines, backoff, rate limiting). Default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
}

export interface FamilyAStack {
  readonly client: FamilyAClient;
  readonly tokens: TokenManager;
}

/** The token manager alone (for `tradebot token`), with its own transport to the token server. */
export function createTokenManager(
  exchange: ExchangeConfig,
  options: CreateFamilyAOptions = {},
  bucket?: TokenBucket,
): { tokens: TokenManager; close(): Promise<void> } {
  const familyA = exchange.familyA;
  if (familyA === undefined) {
    throw new FamilyAError(
      FamilyAErrorCode.InvalidOptions,
      'exchange.familyA is missing: add clientId, privateKeyFile and participant to the config',
    );
  }
  const privateKey = loadPrivateKey(familyA.privateKeyFile);
  const sched = options.scheduler === undefined ? {} : { scheduler: options.scheduler };
  const http = new HttpTransport({
    baseUrl: exchange.authUrl,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...sched,
  });
  const transport = withRateLimit(http, bucket ?? { ...options.rateLimit, ...sched });
  const tokens = new TokenManager({
    clientId: familyA.clientId,
    authUrl: exchange.authUrl,
    apiUrl: exchange.apiUrl,
    privateKey,
    transport,
    refreshMarginSeconds: familyA.refreshMarginSeconds,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.logger === undefined ? {} : { logger: options.logger.child({ component: 'familya-token' }) }),
  });
  return { tokens, close: () => transport.close() };
}

/** The family A client and its token manager, ready to call `exchange.apiUrl`. */
export function createFamilyAClient(exchange: ExchangeConfig, options: CreateFamilyAOptions = {}): FamilyAStack {
  const sched = options.scheduler === undefined ? {} : { scheduler: options.scheduler };
  const bucket = new TokenBucket({ ...options.rateLimit, ...sched });
  const auth = createTokenManager(exchange, options, bucket);
  const http = new HttpTransport({
    baseUrl: exchange.apiUrl,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...sched,
  });
  const logger = options.logger?.child({ component: 'familya' });
  const transport = withRetry(withRateLimit(http, bucket), {
    ...sched,
    ...options.retry,
    onRetry: (info) => {
      logger?.warn(
        { method: info.request.method, path: info.request.path, attempt: info.attempt, delayMs: info.delayMs, err: info.error },
        'family A call failed; retrying',
      );
      options.retry?.onRetry?.(info);
    },
  });
  const client = new FamilyAClient({
    transport,
    tokens: auth.tokens,
    ...(exchange.familyA === undefined ? {} : { participant: exchange.familyA.participant }),
    ...(options.catalog === undefined ? {} : { catalog: options.catalog }),
    ...(options.autoLoadInstruments === undefined ? {} : { autoLoadInstruments: options.autoLoadInstruments }),
    onClose: async () => {
      await auth.close();
      bucket.close();
    },
  });
  return { client, tokens: auth.tokens };
}
