/**
 * The `sim` section of a config file: the embedded exchange's ports, users, API clients, instruments,
 * gateway settings, family A token and API settings, gRPC server limits, simulated KYC, synthetic market
 * activity, fault injection (`sim.faults`, for reliability tests and soaks) and the state file that lets a restarted
 * simulator keep its orders and balances (`sim.stateFile`). Other tools rely on these key names
 * (`sim.ports.{api,auth,gateway,grpc}`, `sim.users[]`, `sim.clients[]`, `sim.instruments[]`, `sim.activity`,
 * `sim.familyA`, `sim.grpc`, `sim.kyc`, `sim.faults`, `sim.stateFile`).
 */
import { z } from 'zod';
import type { ConfigContext } from '../config/fields.ts';
import { decimal, filePath, nonEmptyString, oneOf, port, positiveInt } from '../config/fields.ts';
import { ALWAYS, checkInstrument, checkSimSection } from './config-checks.ts';
import { MARKET_DATA_MAX_SYMBOLS } from '../domain/limits.ts';

const PARTICIPANT = /^firms\/[A-Za-z0-9_.-]+\/users\/[A-Za-z0-9_.@-]+$/;
const ACCOUNT = /^firms\/[A-Za-z0-9_.-]+\/accounts\/[A-Za-z0-9_.-]+$/;
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

export const INSTRUMENT_STATES = ['OPEN', 'PREOPEN', 'HALTED', 'SUSPENDED', 'CLOSED', 'EXPIRED', 'TERMINATED'] as const;
export const SCOPES = [
  'read:marketdata',
  'read:l2marketdata',
  'read:instruments',
  'read:orders',
  'write:orders',
  'read:reports',
  'read:positions',
  'read:dropcopy',
  'read:accounts',
  'write:accounts',
  'read:funding',
  'write:funding',
  'read:kyc',
  'write:kyc',
] as const;

/**
 * A duration in seconds, whole or fractional (`0.05`). The YAML loader keeps floats as their source text
 * (so decimals stay exact), hence the decimal string is accepted besides a plain number.
 */
function seconds(what = 'a duration in seconds') {
  return z.union([z.number(), z.string()], { error: `expected ${what}` }).transform((raw, ctx) => {
    const value = typeof raw === 'number' ? raw : /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
    if (!Number.isFinite(value) || value <= 0) {
      ctx.addIssue({ code: 'custom', message: `expected ${what} greater than 0, got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return value;
  });
}

const participant = () =>
  z
    .string({ error: 'expected a participant such as "firms/demo/users/alice"' })
    .regex(PARTICIPANT, 'expected the form firms/<firm>/users/<user>');
const account = () =>
  z
    .string({ error: 'expected an account such as "firms/demo/accounts/alice-1"' })
    .regex(ACCOUNT, 'expected the form firms/<firm>/accounts/<account>');

function simUser() {
  return z.strictObject({
    username: nonEmptyString('a username'),
    /** The user's password; the sim stores only its scrypt hash. */
    password: nonEmptyString('a password (use ${ENV_VAR} to keep it out of the file)'),
    participant: participant(),
    accounts: z.array(account()).min(1, 'a user needs at least one account'),
    /** Base32 TOTP secret: when set, MFA is on and login needs `otp`. */
    mfaSecret: z
      .string()
      .regex(/^[A-Z2-7]+=*$/, 'expected a base32 secret (A-Z, 2-7)')
      .min(16, 'a TOTP secret needs at least 16 base32 characters')
      .optional(),
    /** false: the user must first call /auth/v1beta1/register with a registration token. */
    registered: z.boolean({ error: 'expected true or false' }).default(true),
  });
}

function simClient(context: ConfigContext) {
  return z.strictObject({
    clientId: nonEmptyString('a client id'),
    publicKeyFile: filePath(context),
    scopes: z.array(oneOf(SCOPES)).default([]),
    participant: participant(),
    /** Addresses allowed to call /v1 with this client's tokens; absent means any. */
    allowlist: z.array(z.string().min(1)).optional(),
  });
}

function simInstrument() {
  return (
    z
      .strictObject({
        symbol: z.string({ error: 'expected a symbol' }).regex(SYMBOL, 'a symbol is 1-64 letters, digits, _ . : -'),
        description: z.string().default(''),
        /** Event group for risk limits (e.g. all strikes of one event). */
        eventGroup: z.string().optional(),
        priceScale: positiveInt('a price scale such as 100'),
        /** Quantity scale; 0 means 1 (whole contracts). */
        fractionalQtyScale: z.number({ error: 'expected a quantity scale such as 1 (0 means 1)' }).int().min(0).default(1),
        tickSize: decimal({ positive: true }),
        /** Smallest quantity step (decimal contracts); default 1 / fractionalQtyScale. */
        lotSize: decimal({ positive: true }).optional(),
        priceLimits: z.strictObject({ low: decimal(), high: decimal() }),
        state: oneOf(INSTRUMENT_STATES).default('OPEN'),
        /** Starting fair value for synthetic activity; default mid of the price limits. */
        fairValue: decimal().optional(),
        /** ISO time when the contract expires and settles (optional). */
        expiration: z.iso.datetime({ error: 'expected an ISO 8601 UTC time such as 2026-12-31T21:00:00Z' }).optional(),
      })
      .refine((i) => i.priceLimits.low.lt(i.priceLimits.high), {
        error: 'priceLimits.low must be below priceLimits.high',
        path: ['priceLimits'],
      })
      // scales, tick, lot, limits and fair value against each other (src/sim/config-checks.ts)
      .superRefine(checkInstrument, ALWAYS)
  );
}

function simActivity() {
  return z
    .strictObject({
      enabled: z.boolean({ error: 'expected true or false' }).default(true),
      seed: z.number().int().default(1),
      /** Milliseconds between activity steps (each step moves fair values and runs a few agents). */
      intervalMs: positiveInt('an interval in milliseconds').default(200),
      /** Liquidity providers per instrument, each quoting a few levels around fair value. */
      makersPerInstrument: positiveInt().default(3),
      /** Probability per step per instrument that a noise taker sends a marketable order. */
      takerProbability: decimal({ min: '0', max: '1' }).prefault('0.35'),
      /** Standard deviation of the fair-value walk per step, in ticks. */
      volatilityTicks: decimal({ min: '0' }).prefault('0.6'),
      /** Largest order of an agent (contracts). */
      maxOrderQty: positiveInt().default(20),
    })
    .prefault({});
}

function simGateway() {
  return z
    .strictObject({
      /** Host name of `gateway_url`; requests through a private link carry it in `Host`. */
      host: z.string().default('rest.sim.tradebot.local'),
      accessTokenTtlSeconds: seconds().default(900),
      refreshTokenTtlSeconds: seconds().default(86_400),
      registrationTokenTtlSeconds: seconds().default(86_400),
      rateLimitPerSecond: positiveInt().default(100),
      heartbeatSeconds: seconds().default(10),
      maxPageSize: positiveInt().default(1000),
      /** Concurrent NDJSON streams per firm (as gRPC's `maxStreamsPerFirm`); one more is 429 RESOURCE_EXHAUSTED. */
      maxStreamsPerFirm: positiveInt().default(20),
      /** Bytes a stream may have waiting for a client that does not read before it is cut (RESOURCE_EXHAUSTED). */
      maxStreamBufferBytes: positiveInt().default(8 * 1024 * 1024),
    })
    .prefault({});
}

/** Limits of the simulator's gRPC server (src/sim/grpc). */
function simGrpc() {
  return z
    .strictObject({
      /** Concurrent streams per firm; one more is answered RESOURCE_EXHAUSTED. */
      maxStreamsPerFirm: positiveInt().default(20),
      /** Symbols one market data stream may name; more are INVALID_ARGUMENT. */
      maxSymbolsPerStream: positiveInt().default(MARKET_DATA_MAX_SYMBOLS),
      /** Heartbeat interval of idle streams; default `sim.gateway.heartbeatSeconds`. */
      heartbeatSeconds: seconds().optional(),
      /** Executions and trades kept for resuming drop copy / trade capture streams (`resume_token`). */
      replayBufferSize: positiveInt().default(10_000),
      /** Messages queued for a slow client before its stream is cut (RESOURCE_EXHAUSTED). */
      maxQueuedMessages: positiveInt().default(100_000),
      /** Largest ReportAPI.SearchTrades page. */
      maxPageSize: positiveInt().default(1000),
    })
    .prefault({});
}

function simFamilyA() {
  return z
    .strictObject({
      /** Lifetime of the access tokens the token server issues (`expires_in`). */
      accessTokenTtlSeconds: seconds().default(180),
      /** Tolerance for an assertion's `iat` / `nbf` ahead of the sim clock. */
      clockSkewSeconds: z.number({ error: 'expected a number of seconds' }).int('expected whole seconds').min(0).max(300).default(5),
      /** Largest `pageSize` of the paged /v1 searches (instruments have their own cap of 1000). */
      maxPageSize: positiveInt().default(1000),
    })
    .prefault({});
}

function simKyc(context: ConfigContext) {
  return z
    .strictObject({
      /** Seeds the verification schedules and the duplicate notifications. */
      seed: z.number({ error: 'expected a whole number' }).int().default(1),
      /** Sim-clock delay between two status changes of a verification: uniform in [min, max] seconds. */
      minStepSeconds: seconds().default(2),
      maxStepSeconds: seconds().default(10),
      /** Relative weights of the final decision. */
      decisionWeights: z
        .strictObject({
          accept: decimal({ min: '0' }).prefault('0.8'),
          reject: decimal({ min: '0' }).prefault('0.1'),
          review: decimal({ min: '0' }).prefault('0.1'),
        })
        .refine((w) => w.accept.plus(w.reject).plus(w.review).gt(0), { error: 'at least one decision weight must be above 0' })
        .prefault({}),
      /** Probability that a verification goes ON_HOLD before it is CLOSED. */
      holdProbability: decimal({ min: '0', max: '1' }).prefault('0.25'),
      /** Probability that a delivered notification is sent a second time (receivers must deduplicate). */
      duplicateProbability: decimal({ min: '0', max: '1' }).prefault('0.1'),
      /** Deadline for the webhook's answer, for the registration test request and for every delivery. */
      webhookTimeoutMs: positiveInt('a timeout in milliseconds').default(5000),
      /** PEM file of an extra CA the sim trusts for webhook URLs (e.g. a test's self-signed certificate). */
      extraCaFile: filePath(context).optional(),
      /** Failed deliveries are retried with exponential backoff (sim clock), up to maxAttempts in all. */
      retry: z
        .strictObject({
          maxAttempts: positiveInt().default(6),
          initialBackoffMs: positiveInt().default(1000),
          maxBackoffMs: positiveInt().default(60_000),
        })
        .prefault({}),
      /** Wall-clock period of the timer that moves verifications and deliveries along in `tradebot sim`. */
      tickMs: positiveInt('an interval in milliseconds').default(250),
    })
    .refine((k) => k.minStepSeconds <= k.maxStepSeconds, {
      error: 'minStepSeconds must not exceed maxStepSeconds',
      path: ['minStepSeconds'],
    })
    .prefault({});
}

export const FAULT_STATUSES = [429, 500, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

const faultStatus = () =>
  z
    .number({ error: `expected one of ${FAULT_STATUSES.join(', ')}` })
    .refine((v) => (FAULT_STATUSES as readonly number[]).includes(v), { error: `expected one of ${FAULT_STATUSES.join(', ')}` })
    .transform((v) => v as FaultStatus);

const probability = () => decimal({ min: '0', max: '1' }).prefault('0');

/**
 * Fault injection (src/sim/faults): everything off by default. HTTP faults hit gateway requests whose path
 * starts with one of `paths`; stream faults hit the gateway's NDJSON streams and the gRPC streams.
 */
function simFaults() {
  return z
    .strictObject({
      /** Seeds the random choices of the probabilistic faults. */
      seed: z.number({ error: 'expected a whole number' }).int().default(1),
      /** Path prefixes of the gateway requests the HTTP faults apply to. */
      paths: z.array(z.string().startsWith('/', 'a path prefix starts with "/"')).default(['/api/']),
      /** Ends every open stream (NDJSON and gRPC) from the server side every N seconds. */
      dropStreamsEverySeconds: seconds().optional(),
      /** Every N seconds, the open streams stop writing (heartbeats too) but stay connected. */
      stallStreamsEverySeconds: seconds().optional(),
      /** Answers a request with one of `statuses` (429 with retry-after) before processing it. */
      errors: z
        .strictObject({
          probability: probability(),
          statuses: z.array(faultStatus()).min(1, 'name at least one status').default([429, 503]),
        })
        .prefault({}),
      /** Processes a request, then holds its answer for `ms` (set it past the client's timeout). */
      delays: z.strictObject({ probability: probability(), ms: positiveInt('a delay in milliseconds').default(20_000) }).prefault({}),
      /** Processes a request, then destroys the connection after half of the answer's body. */
      resets: z.strictObject({ probability: probability() }).prefault({}),
      /** Order stream executions sent twice, or swapped with the next one. */
      orderStream: z.strictObject({ duplicateProbability: probability(), reorderProbability: probability() }).prefault({}),
      /** Market data book updates (gateway NDJSON and gRPC) sent twice, or swapped with the next one. */
      marketData: z.strictObject({ duplicateProbability: probability(), reorderProbability: probability() }).prefault({}),
    })
    .prefault({});
}

export function simSection(context: ConfigContext) {
  return (
    z
      .strictObject({
        ports: z
          .strictObject({ api: port(), auth: port(), gateway: port(), grpc: port() })
          .prefault({ api: 0, auth: 0, gateway: 0, grpc: 0 }),
        /** Secret that signs the sim's gateway tokens; default is random per start (tokens die with the process). */
        signingSecret: z.string().min(32, 'the signing secret needs at least 32 characters').optional(),
        /** Cash credited to every account at start. */
        startingBalance: decimal({ min: '0' }).prefault('100000'),
        currency: z.string().default('USD'),
        gateway: simGateway(),
        familyA: simFamilyA(),
        grpc: simGrpc(),
        kyc: simKyc(context),
        users: z.array(simUser()).default([]),
        clients: z.array(simClient(context)).default([]),
        instruments: z.array(simInstrument()).min(1, 'the sim needs at least one instrument'),
        activity: simActivity(),
        faults: simFaults(),
        /**
         * JSON file of the exchange state (working orders, ledger, recent order history and trades): loaded at
         * start when present, written atomically every `stateIntervalSeconds` and on close (SIGINT/SIGTERM).
         */
        stateFile: filePath(context).optional(),
        stateIntervalSeconds: seconds().default(5),
        /** Finished orders kept for lookups and idempotent retries (oldest dropped first); working orders always stay. */
        maxOrderHistory: positiveInt().default(50_000),
        /** Trades kept on the tape for trade search and trade stats (oldest dropped first). */
        maxTrades: positiveInt().default(200_000),
      })
      // duplicated symbols, usernames, participants and clients (src/sim/config-checks.ts)
      .superRefine(checkSimSection, ALWAYS)
  );
}

export type SimConfig = z.output<ReturnType<typeof simSection>>;
export type SimUserConfig = SimConfig['users'][number];
export type SimInstrumentConfig = SimConfig['instruments'][number];
export type SimClientConfig = SimConfig['clients'][number];
export type SimKycConfig = SimConfig['kyc'];
export type SimFamilyAConfig = SimConfig['familyA'];
export type SimGrpcConfig = SimConfig['grpc'];
export type SimFaultsConfig = SimConfig['faults'];
