/**
 * The logger factory: pino, JSON lines by default, human-readable (pino-pretty) when stderr/stdout is a
 * terminal or `pretty: true`. Secret redaction is built in, not opt-in: every record's fields and message
 * pass through `redactSecrets`, so a password or token handed to a log call by mistake never reaches a file.
 * Objects are logged by their JSON form (a Decimal as its digits, an order view as its fields). Besides
 * pino's `log.warn({ fields }, 'message')`, `log.warn('message', { fields })` logs the fields too (pino
 * alone drops an object after a message without a %o placeholder).
 */
import { pino, type Logger, type LevelWithSilent, type DestinationStream } from 'pino';
import { createRequire } from 'node:module';
import type PinoPrettyModule from 'pino-pretty';
import { redactSecrets, redactString } from './redact.ts';

export type { Logger } from 'pino';
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = LevelWithSilent;

export interface LoggerOptions {
  name?: string;
  level?: LogLevel;
  /** true: pretty lines; false: JSON lines; undefined: pretty only when the destination is a terminal. */
  pretty?: boolean;
  /** Where records go; default is stderr, so stdout stays free for machine-readable lines. */
  destination?: DestinationStream | NodeJS.WritableStream;
  /**
   * The clock of each record's `time` (epoch ms), default the wall clock. A backtest passes its replayed
   * market time, so a log line matches the tape; pretty lines then show it in UTC, as the tape is.
   */
  now?: () => number;
}

/** pino-pretty, loaded only when a logger writes pretty lines (a terminal): ~50 ms of start-up spared otherwise. */
let prettyFactory: typeof PinoPrettyModule | undefined;
function pinoPretty(): typeof PinoPrettyModule {
  prettyFactory ??= createRequire(import.meta.url)('pino-pretty') as typeof PinoPrettyModule;
  return prettyFactory;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stderr;
  const isTty = (destination as { isTTY?: boolean }).isTTY === true;
  const pretty = options.pretty ?? isTty;
  const stream = pretty
    ? pinoPretty()({
        destination: destination as NodeJS.WritableStream,
        colorize: isTty,
        translateTime: options.now === undefined ? 'SYS:HH:MM:ss.l' : 'UTC:yyyy-mm-dd HH:MM:ss.l',
        ignore: 'pid,hostname',
        sync: true,
      })
    : destination;
  return pino(
    {
      name: options.name ?? 'tradebot',
      level: options.level ?? 'info',
      base: undefined,
      timestamp: options.now === undefined ? pino.stdTimeFunctions.isoTime : clockTime(options.now),
      formatters: {
        level: (label) => ({ level: label }),
        log: (record) => redactSecrets(record) as Record<string, unknown>,
      },
      serializers: { err: (err: unknown) => redactSecrets(err) },
      hooks: {
        logMethod(args, method) {
          const scrubbed = fieldsFirst(args.map((arg: unknown) => (typeof arg === 'string' ? redactString(arg) : arg)));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    stream as DestinationStream,
  );
}

/** pino's timestamp from `now`: `,"time":"<ISO 8601 UTC>"`, as isoTime writes the wall clock. */
function clockTime(now: () => number): () => string {
  return () => `,"time":"${new Date(now()).toISOString()}"`;
}

/** `('message', { fields })` (no placeholder in the message) as pino's `({ fields }, 'message')`; anything else as given. */
function fieldsFirst(args: unknown[]): unknown[] {
  const [message, fields] = args;
  if (args.length !== 2 || typeof message !== 'string' || message.includes('%')) return args;
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return args;
  return [fields, message];
}

/** A logger that drops everything; for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
