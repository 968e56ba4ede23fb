/**
 * The `bot` section of a config file: which strategy runs with which params (or several: `strategies`,
 * strategies-config.ts), on which accounts, how the
 * venue is reached (orders and, per stream, the transport of market data and order updates), what happens
 * to orders the bot did not send, where its order journal lives, the operator control endpoint and
 * optional metrics. Risk limits live in their own `risk` section (src/engine/risk/config.ts). Whether the
 * chosen venue and transports fit the `exchange` section is checked at start (src/bot/live/run-plan.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import type { ConfigContext } from '../config/fields.ts';
import { decimal, filePath, nonEmptyString, oneOf, port, seconds } from '../config/fields.ts';
import { LOOPBACK_HOSTS } from './live/control-server.ts';
import { looksLikeStrategyPath } from '../engine/strategy/strategy-path.ts';
import { bothForms, strategiesField } from './strategies-config.ts';

export const STREAM_TRANSPORTS = ['ndjson', 'grpc'] as const;
export type StreamTransport = (typeof STREAM_TRANSPORTS)[number];
/** The transport of each stream, after defaults: never a shorthand. */
export interface StreamTransports {
  readonly marketData: StreamTransport;
  readonly orders: StreamTransport;
}
const STREAM_KEYS = ['marketData', 'orders'] as const;

function isTransport(value: unknown): value is StreamTransport {
  return typeof value === 'string' && (STREAM_TRANSPORTS as readonly string[]).includes(value);
}

/**
 * `bot.streams`: one transport for both streams (`grpc`), or one per stream (`{ marketData: grpc, orders:
 * ndjson }`, a missing key takes the venue's default). Parsed by hand so every mistake gets a message that
 * names the key and the allowed values (a zod union would report the string branch's complaint for a mapping).
 */
function streamsField() {
  const allowed = `${STREAM_TRANSPORTS.join(' or ')}`;
  return z.unknown().transform((raw, ctx): Partial<Record<(typeof STREAM_KEYS)[number], StreamTransport>> | undefined => {
    if (raw === undefined) return undefined;
    if (isTransport(raw)) return { marketData: raw, orders: raw };
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      ctx.addIssue({
        code: 'custom',
        message:
          `expected ${allowed} for both streams, or a mapping { marketData: ${allowed}, orders: ${allowed} }, ` +
          `got ${JSON.stringify(raw)}`,
      });
      return z.NEVER;
    }
    const out: Partial<Record<(typeof STREAM_KEYS)[number], StreamTransport>> = {};
    for (const [key, value] of Object.entries(raw)) {
      if (!(STREAM_KEYS as readonly string[]).includes(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `unknown stream; the streams are ${STREAM_KEYS.join(' and ')}` });
        continue;
      }
      if (!isTransport(value)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `expected ${allowed}, got ${JSON.stringify(value)}` });
        continue;
      }
      out[key as (typeof STREAM_KEYS)[number]] = value;
    }
    return out;
  });
}

/** Each stream's transport: as configured, else gRPC with the family A venue (it has no REST streams) and NDJSON with the gateway. */
export function resolveStreams(configured: Partial<StreamTransports> | undefined, venue: 'gateway' | 'familyA'): StreamTransports {
  const fallback: StreamTransport = venue === 'familyA' ? 'grpc' : 'ndjson';
  return { marketData: configured?.marketData ?? fallback, orders: configured?.orders ?? fallback };
}

const ACCOUNT = /^firms\/[A-Za-z0-9_.-]+\/accounts\/[A-Za-z0-9_.-]+$/;
const account = () =>
  z
    .string({ error: 'expected an account such as "firms/demo/accounts/alice-main"' })
    .regex(ACCOUNT, 'expected the form firms/<firm>/accounts/<account>');

export function botSection(context: ConfigContext = { baseDir: process.cwd() }) {
  const section = z
    .strictObject({
      /** A strategy name from strategies/ or a path to a plugin file (relative to the config file's folder). */
      strategy: nonEmptyString('a strategy name such as market-maker, or a path to a .ts file')
        .transform((value) => (looksLikeStrategyPath(value) ? path.resolve(context.baseDir, value) : value))
        .optional(),
      /** Params validated by the plugin's own schema. */
      params: z.record(z.string(), z.unknown()).optional(),
      /**
       * Several strategies in one bot, each `{ id, strategy, params, account?, risk? }` (strategies-config.ts);
       * absent: the one strategy of `strategy` and `params`, whose id is its name.
       */
      strategies: strategiesField(context).optional(),
      /** The account intents trade by default. */
      account: account().optional(),
      /** Every account the bot follows (default: `account`). */
      accounts: z.array(account()).optional(),
      /** With the embedded sim: the sim user the bot logs in as (default: the first one). */
      simUser: z.string().optional(),
      /** Where orders go: the trading gateway (family B) or the family A `/v1` API. */
      venue: oneOf(['gateway', 'familyA'] as const).default('gateway'),
      /**
       * How market data and order updates arrive: the gateway's NDJSON streams or the exchange's gRPC streams,
       * for both (`grpc`) or per stream (`{ marketData: grpc, orders: ndjson }`). Default per stream: ndjson
       * with the gateway venue, grpc with the family A venue. Resolved below, so readers see both keys.
       */
      streams: streamsField().optional(),
      /** Orders found on the exchange that this run did not send: keep tracking them, or cancel them. */
      unknownOrders: oneOf(['adopt', 'cancel'] as const).default('adopt'),
      /**
       * The order journal (JSON lines, fsynced; relative to the config file). Absent: against an environment
       * `.tradebot/journal-<account>.jsonl` in the working directory, against the embedded sim in memory.
       * A restart with the same journal resumes the orders the last run left in flight.
       */
      journal: filePath(context).optional(),
      /** Stop by itself after this many seconds (absent: until SIGINT). */
      durationSeconds: seconds().optional(),
      /**
       * At stop, how long (engine ms) the intents `onStop` sent may take to complete before the engine cancels
       * what is left (absent: 1000; 0: cancel at once). Ends early once nothing is in flight.
       */
      stopGraceMs: z
        .number({ error: 'expected milliseconds such as 1000' })
        .int('expected whole milliseconds')
        .min(0, 'expected milliseconds >= 0')
        .max(60_000, 'at most 60000 ms')
        .optional(),
      fees: z.strictObject({ takerBps: decimal({ min: '0' }).prefault('0'), makerBps: decimal({ min: '0' }).prefault('0') }).prefault({}),
      /** Prometheus metrics on 127.0.0.1:<port> (0 picks a free port). */
      metrics: z.strictObject({ port: port() }).optional(),
      /**
       * The operator control endpoint (`tradebot control <state>`): HTTP on a loopback address only (it sets the
       * trading state without authentication); 0 picks a free port (logged at start).
       */
      control: z
        .strictObject({
          host: z
            .string({ error: 'expected a loopback address such as "127.0.0.1"' })
            .refine((host) => LOOPBACK_HOSTS.includes(host), {
              error: (issue) =>
                `the control endpoint binds to loopback only (${LOOPBACK_HOSTS.join(', ')}), ` +
                `got ${JSON.stringify(issue.input)}: reach a remote bot through an SSH tunnel`,
            })
            .default('127.0.0.1'),
          port: port(),
          /** The web console on the same server (bot/console): pages and API behind an access token. */
          console: z.boolean({ error: 'expected true or false' }).default(false),
          /** The console's access token (e.g. "${TRADEBOT_CONSOLE_TOKEN}"); absent: a fresh one each run. */
          token: z
            .string({ error: 'expected a token string, e.g. "${TRADEBOT_CONSOLE_TOKEN}"' })
            .min(24, 'the console token must be at least 24 characters (e.g. openssl rand -base64 24)')
            .max(256, 'the console token must be at most 256 characters')
            .regex(/^[A-Za-z0-9._~+/=-]+$/, 'the console token may hold letters, digits and . _ ~ + / = - only')
            .optional(),
        })
        .optional(),
    })
    .superRefine((bot, ctx) => {
      const both = bothForms(bot);
      if (both !== undefined) ctx.addIssue({ code: 'custom', path: ['strategies'], message: both });
    })
    // the single form's defaults come after the check above, which needs to see what was given
    .transform((bot) => ({
      ...bot,
      strategy: bot.strategy ?? DEFAULT_STRATEGY,
      params: bot.params ?? {},
      streams: resolveStreams(bot.streams, bot.venue),
    }));
  return section.prefault({});
}

/** The strategy of a config that names none. */
export const DEFAULT_STRATEGY = 'market-maker';

export type BotConfig = z.output<ReturnType<typeof botSection>>;
