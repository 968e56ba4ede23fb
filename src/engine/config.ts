/**
 * The `bot` section of a config file: which strategy runs with which params, on which accounts, how the
 * venue is reached, what happens to orders the bot did not send, where its order journal lives, and
 * optional metrics. Risk limits live in
 * their own `risk` section (src/engine/risk/config.ts).
 */
import { z } from 'zod';
import type { ConfigContext } from '../config/fields.ts';
import { decimal, filePath, nonEmptyString, oneOf, port, seconds } from '../config/fields.ts';

const ACCOUNT = /^firms\/[A-Za-z0-9_.-]+\/accounts\/[A-Za-z0-9_.-]+$/;
const account = () => z.string({ error: 'expected an account such as "firms/demo/accounts/alice-main"' }).regex(ACCOUNT, 'expected the form firms/<firm>/accounts/<account>');

export function botSection(context: ConfigContext = { baseDir: process.cwd() }) {
  return z
    .strictObject({
      /** A strategy name from strategies/ or a path to a plugin file. */
      strategy: nonEmptyString('a strategy name such as market-maker, or a path to a .ts file').default('market-maker'),
      /** Params validated by the plugin's own schema. */
      params: z.record(z.string(), z.unknown()).default({}),
      /** The account intents trade by default. */
      account: account().optional(),
      /** Every account the bot follows (default: `account`). */
      accounts: z.array(account()).optional(),
      /** With the embedded sim: the sim user the bot logs in as (default: the first one). */
      simUser: z.string().optional(),
      /** Where orders go: the trading gateway (family B) or the family A `/v1` API (streams then come over gRPC). */
      venue: oneOf(['gateway', 'familyA'] as const).default('gateway'),
      /** How order updates and market data arrive: gateway NDJSON streams or gRPC. */
      streams: oneOf(['ndjson', 'grpc'] as const).default('ndjson'),
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
      fees: z.strictObject({ takerBps: decimal({ min: '0' }).prefault('0'), makerBps: decimal({ min: '0' }).prefault('0') }).prefault({}),
      /** Prometheus metrics on 127.0.0.1:<port> (0 picks a free port). */
      metrics: z.strictObject({ port: port() }).optional(),
    })
    .prefault({});
}

export type BotConfig = z.output<ReturnType<typeof botSection>>;
