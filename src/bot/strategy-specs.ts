/**
 * The strategies a bot config asks for, loaded and checked (#25): every entry of `bot.strategies` (or the
 * single `bot.strategy` with `bot.params`, one strategy whose id is its name) has its plugin loaded and its
 * params validated by the plugin's own schema, and its `risk` keys checked to narrow the bot's `risk`
 * section. Every problem of every entry is reported at once in one ConfigError, by its YAML path
 * (`bot.strategies[1].params.qty: ...`, `bot.strategies[0].risk.maxPosition: ...`).
 */
import type { TradebotConfig } from '../config/index.ts';
import { ConfigError, type ConfigProblem } from '../config/errors.ts';
import { Decimal } from '../domain/decimal.ts';
import { describeError } from '../errors.ts';
import type { RiskConfig } from '../engine/risk/config.ts';
import type { AnyStrategy } from '../engine/strategy/define-strategy.ts';
import { loadStrategy, validateParams } from '../engine/strategy/loader.ts';
import type { StrategyRiskOverrides } from './strategies-config.ts';

export interface StrategySpec {
  /** Unique in the bot: the entry's id, or the strategy's name in the single form. */
  readonly id: string;
  readonly definition: AnyStrategy;
  /** Validated by the plugin's schema. */
  readonly params: unknown;
  /** The account it trades by default (absent: the bot's). */
  readonly account: string | undefined;
  /** Its own limits (only the keys given; the others are the bot's). */
  readonly risk: StrategyRiskOverrides;
}

/** Limits a strategy may only tighten: a larger value than the bot's is an error. */
const DECIMAL_LIMITS = ['maxOrderQty', 'maxOrderNotional', 'maxPosition', 'maxEventPosition', 'maxDailyLoss'] as const;
const COUNT_LIMITS = ['maxOpenOrders', 'maxMessagesPerSecond', 'maxQueuedMessages', 'maxQueueAgeMs'] as const;

type Entry = { id: string | undefined; strategy: string; params: Record<string, unknown>; account?: string; risk?: StrategyRiskOverrides };

/** Why a strategy's limits are looser than the bot's (one problem per key). */
export function looserLimits(own: StrategyRiskOverrides, bot: RiskConfig, base: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const looser = (key: string, mine: string, firm: string) =>
    problems.push({
      path: `${base}.${key}`,
      message: `${mine} is looser than risk.${key} ${firm}: a strategy's limits can only narrow the bot's (give at most ${firm})`,
    });
  for (const key of DECIMAL_LIMITS) {
    const mine = own[key];
    const firm = bot[key];
    if (mine !== undefined && firm !== undefined && new Decimal(mine).gt(new Decimal(firm))) looser(key, mine.toString(), firm.toString());
  }
  for (const key of COUNT_LIMITS) {
    const mine = own[key];
    const firm = bot[key];
    if (mine !== undefined && firm !== undefined && mine > firm) looser(key, String(mine), String(firm));
  }
  return problems;
}

/** Loads and checks every strategy of the config; throws one ConfigError listing every problem. */
export async function loadStrategySpecs(config: Pick<TradebotConfig, 'bot' | 'risk'>, file?: string): Promise<StrategySpec[]> {
  const { bot } = config;
  const many = bot.strategies !== undefined;
  const entries: Entry[] = bot.strategies ?? [{ id: undefined, strategy: bot.strategy, params: bot.params }];
  const problems: ConfigProblem[] = [];
  const paramsErrors: ConfigError[] = [];
  const specs: StrategySpec[] = [];
  for (const [i, entry] of entries.entries()) {
    const base = many ? `bot.strategies[${i}]` : 'bot';
    let definition: AnyStrategy;
    try {
      definition = await loadStrategy(entry.strategy);
    } catch (error) {
      if (!many) throw error; // the single form fails as `tradebot run` does (STRATEGY_NOT_FOUND, ...)
      problems.push({ path: `${base}.strategy`, message: describeError(error) });
      continue;
    }
    let params: unknown;
    try {
      params = validateParams(definition, entry.params, { ...(file === undefined ? {} : { file }), path: `${base}.params` });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      paramsErrors.push(error);
      problems.push(...error.problems);
    }
    const risk = entry.risk ?? {};
    problems.push(...looserLimits(risk, config.risk, `${base}.risk`));
    specs.push({ id: entry.id ?? definition.name, definition, params, account: entry.account, risk });
  }
  // one strategy's params alone: its own error (its heading names the strategy)
  const only = paramsErrors[0];
  if (only !== undefined && paramsErrors.length === 1 && only.problems.length === problems.length) throw only;
  if (problems.length > 0) throw new ConfigError(problems, file);
  return specs;
}
