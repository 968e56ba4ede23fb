/**
 * The `risk` section of a config file. Every limit is optional: absent means that check is off. Only the
 * message-rate throttle has a default (50 per second, half the venue's 100 messages/s per firm; at most 100),
 * with its queue (what is over the budget waits, up to maxQueuedMessages requests and maxQueueAgeMs each).
 * Decimals are written as strings. Unknown keys are errors.
 *
 *   risk:
 *     maxOrderQty: "100"            # per order
 *     maxOrderNotional: "50"        # price x qty per order (market orders priced at the high price limit)
 *     maxPosition: "500"            # per symbol and account, worst case incl. open orders on the same side
 *     maxEventPosition: "1000"      # per event group and account: sum of each symbol's worst-case |position|
 *     maxOpenOrders: 40             # working + in-flight orders across the bot
 *     maxMessagesPerSecond: 50      # requests sent in any 1 s window of engine time (default 50, max 100)
 *     maxQueuedMessages: 500        # requests waiting for that budget (default 500; 0: refuse over the budget)
 *     maxQueueAgeMs: 2000           # a queued order or replace waiting longer is refused (default 2000)
 *     priceBand: { reference: mid, ticks: 10 }   # or absolute: "0.05", or percent: "10"
 *     maxDailyLoss: "200"           # realized + unrealized; reaching it switches the state (onDailyLoss)
 *     onDailyLoss: reducing         # reducing | halted
 *     onFeedStale: reducing         # reducing | halted
 *     onStrategyError: halted       # reducing | halted
 *     strategyErrorScope: strategy  # with bot.strategies: the failing strategy's state, or the whole bot's
 *     selfMatch: { action: refuse, scope: bot, instruction: SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR }
 *
 * `riskSection()` is the schema the root config composes; `parseRiskConfig()` validates a plain object for
 * programmatic use (backtests, tests) and throws RISK_CONFIG_INVALID listing every problem.
 */
import { z } from 'zod';
import { decimal, oneOf, positiveInt } from '../../config/fields.ts';
import { SELF_MATCH_PREVENTION_INSTRUCTIONS } from '../../domain/enums.ts';
import { riskConfigError } from './errors.ts';

export const DEFAULT_MAX_MESSAGES_PER_SECOND = 50;
/** The venue's limit per firm (EXCHANGE_API_NOTES.md); the throttle may not be configured above it. */
export const VENUE_MAX_MESSAGES_PER_SECOND = 100;

/** Requests that may wait for the message budget (risk.maxQueuedMessages), and the most that may be set. */
export const DEFAULT_MAX_QUEUED_MESSAGES = 500;
export const MAX_QUEUED_MESSAGES = 100_000;
/** How long a queued order or replace may wait (risk.maxQueueAgeMs), and the most that may be set. */
export const DEFAULT_MAX_QUEUE_AGE_MS = 2000;
export const MAX_QUEUE_AGE_MS = 60_000;

const RESTRICTED_STATES = ['reducing', 'halted'] as const;

function priceBandSection() {
  return z
    .strictObject({
      /** What the band is centred on. */
      reference: oneOf(['mid', 'last']).default('mid'),
      /** Half-width as a price distance, e.g. "0.05". */
      absolute: decimal({ positive: true }).optional(),
      /** Half-width in ticks of the instrument. */
      ticks: positiveInt('a number of ticks such as 10').optional(),
      /** Half-width in percent of the reference price, e.g. "10". */
      percent: decimal({ positive: true }).optional(),
      /** No reference price yet (one-sided book, no trade): refuse, or let the order through unchecked. */
      whenNoReference: oneOf(['refuse', 'allow']).default('refuse'),
    })
    .superRefine((band, ctx) => {
      const widths = [band.absolute, band.ticks, band.percent].filter((w) => w !== undefined).length;
      if (widths !== 1) {
        ctx.addIssue({
          code: 'custom',
          message: `give exactly one band width: absolute ("0.05"), ticks (10) or percent ("10"); got ${widths}`,
        });
      }
    });
}

function selfMatchSection() {
  return z
    .strictObject({
      /** refuse: refuse the crossing order; cancelResting: cancel the bot's crossed orders first; off. */
      action: oneOf(['refuse', 'cancelResting', 'off']).default('refuse'),
      /** account: only orders of the same account conflict; bot: orders of any of the bot's accounts. */
      scope: oneOf(['account', 'bot']).default('bot'),
      /** Instruction set on approved orders that carry none (the exchange's own self-match prevention). */
      instruction: oneOf(SELF_MATCH_PREVENTION_INSTRUCTIONS).optional(),
    })
    .prefault({});
}

export function riskSection() {
  return z
    .strictObject({
      maxOrderQty: decimal({ positive: true }).optional(),
      maxOrderNotional: decimal({ positive: true }).optional(),
      /** "0" allows only position-reducing orders. */
      maxPosition: decimal({ min: '0' }).optional(),
      maxEventPosition: decimal({ min: '0' }).optional(),
      maxOpenOrders: positiveInt('a number of orders such as 40').optional(),
      maxMessagesPerSecond: positiveInt('a number of messages per second such as 50')
        .max(VENUE_MAX_MESSAGES_PER_SECOND, `must be at most the venue's ${VENUE_MAX_MESSAGES_PER_SECOND} messages/s per firm`)
        .default(DEFAULT_MAX_MESSAGES_PER_SECOND),
      /** Requests that may wait for the message budget at once; 0: no queue, an intent over the budget is refused. */
      maxQueuedMessages: z
        .number({ error: 'expected a whole number of requests >= 0 such as 500 (0: refuse instead of queueing)' })
        .int('expected a whole number of requests >= 0 such as 500 (0: refuse instead of queueing)')
        .min(0, 'must be 0 (refuse instead of queueing) or more')
        .max(MAX_QUEUED_MESSAGES, `must be at most ${MAX_QUEUED_MESSAGES}`)
        .default(DEFAULT_MAX_QUEUED_MESSAGES),
      /** How long (ms of engine time) a queued order or replace may wait before it is refused. */
      maxQueueAgeMs: positiveInt('a number of milliseconds such as 2000')
        .max(MAX_QUEUE_AGE_MS, `must be at most ${MAX_QUEUE_AGE_MS} ms: an order that waits longer is decided on stale data`)
        .default(DEFAULT_MAX_QUEUE_AGE_MS),
      priceBand: priceBandSection().optional(),
      maxDailyLoss: decimal({ positive: true }).optional(),
      onDailyLoss: oneOf(RESTRICTED_STATES).default('reducing'),
      onFeedStale: oneOf(RESTRICTED_STATES).default('reducing'),
      onStrategyError: oneOf(RESTRICTED_STATES).default('halted'),
      /**
       * With several strategies (bot.strategies): whose state a strategy's error moves to onStrategyError, its
       * own (`strategy`, the default when absent: the others trade on) or the whole bot's (`bot`).
       */
      strategyErrorScope: oneOf(['strategy', 'bot'] as const).optional(),
      selfMatch: selfMatchSection(),
    })
    .prefault({});
}

/** The risk section as a config input (decimals as strings) and as parsed (decimals as Decimal). */
export type RiskConfigInput = z.input<ReturnType<typeof riskSection>>;
export type RiskConfig = z.output<ReturnType<typeof riskSection>>;
export type PriceBandConfig = NonNullable<RiskConfig['priceBand']>;
export type SelfMatchConfig = RiskConfig['selfMatch'];

/** Validates a plain object (e.g. `{ maxOrderQty: "10" }`); throws RISK_CONFIG_INVALID with every problem. */
export function parseRiskConfig(input: RiskConfigInput | undefined = {}): RiskConfig {
  const result = riskSection().safeParse(input);
  if (result.success) return result.data;
  throw riskConfigError(
    result.error.issues.map((issue) => `${issue.path.length === 0 ? '(risk)' : issue.path.join('.')}: ${issue.message}`),
  );
}
