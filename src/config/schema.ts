/**
 * The one schema of tradebot's YAML config files. Each subsystem owns its section's schema in its own
 * folder; this module composes them into the root, so every config file is checked by the same rules.
 * Sections: `logging` (here), `sim` (src/sim/config.ts), `exchange` (src/exchange/config.ts), `bot`
 * (src/bot/config.ts), `risk` (src/engine/risk/config.ts).
 */
import { z } from 'zod';
import type { ConfigContext } from './fields.ts';
import { oneOf } from './fields.ts';
import { LOG_LEVELS } from '../logging/logger.ts';
import { simSection } from '../sim/config.ts';
import { exchangeSection } from '../exchange/config.ts';
import { botSection } from '../bot/config.ts';
import { riskSection } from '../engine/risk/config.ts';

export function loggingSection() {
  return z
    .strictObject({
      level: oneOf(LOG_LEVELS).default('info'),
      /** true: human-readable lines; false: JSON lines; absent: pretty only in a terminal. */
      pretty: z.boolean({ error: 'expected true or false' }).optional(),
    })
    .prefault({});
}

export function configSchema(context: ConfigContext) {
  return z.strictObject({
    logging: loggingSection(),
    /** The embedded exchange (used by `tradebot sim` and by `tradebot run` with the default config). */
    sim: simSection(context).optional(),
    /** The exchange this config talks to (URLs, family A client, gateway login, KYC webhook receiver). */
    exchange: exchangeSection(context).optional(),
    /** The bot: strategy, params, accounts, streams, unknown orders, metrics. */
    bot: botSection(context),
    /** Pre-trade risk limits and the trading-state policy. */
    risk: riskSection(),
  });
}

export type TradebotConfig = z.output<ReturnType<typeof configSchema>>;
