/**
 * `bot.strategies`: several strategies in one bot (#25), each `{ id, strategy, params, account?, risk? }`. Ids
 * are unique and lower-case (`[a-z][a-z0-9-]*`: they prefix client order ids and name the strategy in logs,
 * metrics and run.summary). `risk` takes the keys of the top-level `risk` section, checked by the same rules,
 * and keeps only the keys given (a strategy's limits narrow the bot's; an absent key is the bot's). Params are
 * checked here only as a mapping: each strategy's own schema checks them once the plugin is loaded
 * (strategy-specs.ts). The single form, `bot.strategy` with `bot.params`, stays: one strategy whose id is its
 * name; giving both forms is an error.
 */
import path from 'node:path';
import { z } from 'zod';
import type { ConfigContext } from '../config/fields.ts';
import { formatPath } from '../config/errors.ts';
import { describeIssue } from '../config/issues.ts';
import { nonEmptyString } from '../config/fields.ts';
import { riskSection, type RiskConfig } from '../engine/risk/config.ts';
import { looksLikeStrategyPath } from '../engine/strategy/strategy-path.ts';

export const STRATEGY_ID = /^[a-z][a-z0-9-]{0,31}$/;

const ACCOUNT = /^firms\/[A-Za-z0-9_.-]+\/accounts\/[A-Za-z0-9_.-]+$/;

/** A strategy reference: a name from strategies/, or a plugin path relative to the config file's folder. */
export function strategyRef(context: ConfigContext) {
  return nonEmptyString('a strategy name such as market-maker, or a path to a .ts file').transform((value) =>
    looksLikeStrategyPath(value) ? path.resolve(context.baseDir, value) : value,
  );
}

/** A strategy's own risk limits: the keys given, each checked as in the top-level `risk` section. */
export type StrategyRiskOverrides = Partial<RiskConfig>;

function strategyRisk() {
  return z
    .record(z.string(), z.unknown(), { error: 'expected a mapping of risk keys, e.g. { maxPosition: "10" }' })
    .transform((raw, ctx): StrategyRiskOverrides => {
      const parsed = riskSection().safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          if (issue.code !== 'unrecognized_keys') {
            ctx.addIssue({ ...issue, input: undefined } as Parameters<typeof ctx.addIssue>[0]);
            continue;
          }
          // an unknown key keeps the risk section's "did you mean" (this record cannot tell the allowed keys)
          const described = describeIssue(issue, riskSection());
          issue.keys.forEach((key, i) =>
            ctx.addIssue({ code: 'custom', path: [...issue.path, key], message: described[i]?.message ?? 'unknown key' }),
          );
        }
        return z.NEVER;
      }
      const given: Record<string, unknown> = {};
      for (const key of Object.keys(raw)) given[key] = (parsed.data as Record<string, unknown>)[key];
      return given as StrategyRiskOverrides;
    });
}

export function strategyEntry(context: ConfigContext) {
  return z.strictObject({
    id: z
      .string({ error: 'expected an id such as "mm-rain": lower-case letters, digits and -' })
      .regex(STRATEGY_ID, 'expected a lower-case id of at most 32 characters: a letter, then letters, digits or - (e.g. "mm-rain")'),
    strategy: strategyRef(context),
    /** Validated by the plugin's own schema once it is loaded. */
    params: z.record(z.string(), z.unknown(), { error: 'expected a mapping of params' }).default({}),
    /** The account this strategy trades by default (default: `bot.account`). */
    account: z
      .string({ error: 'expected an account such as "firms/demo/accounts/alice-main"' })
      .regex(ACCOUNT, 'expected the form firms/<firm>/accounts/<account>')
      .optional(),
    /** This strategy's limits, narrower than the bot's `risk` section. */
    risk: strategyRisk().optional(),
  });
}

export type StrategyEntryConfig = z.output<ReturnType<typeof strategyEntry>>;

export function strategiesField(context: ConfigContext) {
  return z
    .array(strategyEntry(context), { error: 'expected a list of strategies, each { id, strategy, params }' })
    .min(1, 'list at least one strategy, or use bot.strategy with bot.params')
    .superRefine((entries, ctx) => {
      const first = new Map<string, number>();
      entries.forEach((entry, i) => {
        const earlier = first.get(entry.id);
        if (earlier === undefined) first.set(entry.id, i);
        else
          ctx.addIssue({
            code: 'custom',
            path: [i, 'id'],
            message: `duplicate id "${entry.id}" (bot.strategies[${earlier}] has it): every strategy needs its own id`,
          });
      });
    });
}

/** Both forms in one `bot` section: an issue on `bot.strategies`. */
export function bothForms(bot: { strategies?: unknown; strategy?: unknown; params?: unknown }): string | undefined {
  if (bot.strategies === undefined) return undefined;
  const single = (['strategy', 'params'] as const).filter((key) => bot[key] !== undefined);
  if (single.length === 0) return undefined;
  return (
    `give either bot.strategies or the single form (bot.strategy with bot.params), not both: ` +
    `move ${single.map((key) => formatPath(['bot', key])).join(' and ')} into an entry of bot.strategies`
  );
}
