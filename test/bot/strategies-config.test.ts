/**
 * `bot.strategies` (#25): the list form parsed and checked (ids unique and lower-case, entries strict, risk keys
 * checked as the top-level `risk` and kept only as given, not both forms at once), and loadStrategySpecs: every
 * strategy's params validated by its own schema, every problem of every entry at once by its YAML path, risk
 * limits that can only narrow the bot's; the single form still one strategy whose id is its name.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/index.ts';
import { loadStrategySpecs } from '../../src/bot/strategy-specs.ts';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
  }
  throw new Error('expected a ConfigError');
}

async function specProblems(yaml: string): Promise<string[]> {
  try {
    await loadStrategySpecs(parseConfig(yaml), 'bot.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('bot.yaml');
    return (error as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
  }
  throw new Error('expected a ConfigError');
}

const TWO = `
bot:
  account: firms/demo/accounts/alice-main
  strategies:
    - id: mm-rain
      strategy: market-maker
      params: { symbols: [RAIN-NYC-2026-12-01], quoteQty: "5" }
      risk: { maxPosition: "10" }
    - id: momo
      strategy: momentum-taker
      account: firms/demo/accounts/alice-hedge
      params: { symbols: [FED-CUT-2026-12], qty: "1" }
risk:
  maxPosition: "60"
`;

describe('bot.strategies in the config', () => {
  it('parses a list of strategies, each risk section keeping only the keys given', () => {
    const { bot } = parseConfig(TWO);
    expect(bot.strategies?.map((s) => [s.id, s.strategy, s.account])).toEqual([
      ['mm-rain', 'market-maker', undefined],
      ['momo', 'momentum-taker', 'firms/demo/accounts/alice-hedge'],
    ]);
    expect(Object.keys(bot.strategies?.[0]?.risk ?? {})).toEqual(['maxPosition']);
    expect(bot.strategies?.[0]?.risk?.maxPosition?.toString()).toBe('10');
    expect(bot.strategies?.[1]?.risk).toBeUndefined();
  });

  it('reports every problem of every entry at once, by path: ids, unknown keys, risk keys, accounts', () => {
    const yaml = `
bot:
  strategies:
    - id: MM
      strategy: market-maker
      risk: { maxPositon: "1", maxMessagesPerSecond: 500 }
    - id: mm
      strategy: momentum-taker
      acount: firms/demo/accounts/x
    - id: mm
      strategy: ""
      account: alice
`;
    expect(problemsOf(() => parseConfig(yaml))).toEqual([
      'bot.strategies[0].id: expected a lower-case id of at most 32 characters: a letter, then letters, digits or - (e.g. "mm-rain")',
      "bot.strategies[0].risk.maxMessagesPerSecond: must be at most the venue's 100 messages/s per firm",
      'bot.strategies[0].risk.maxPositon: unknown key; did you mean "maxPosition"?',
      'bot.strategies[1].acount: unknown key; did you mean "account"?',
      'bot.strategies[2].account: expected the form firms/<firm>/accounts/<account>',
      'bot.strategies[2].strategy: expected a strategy name such as market-maker, or a path to a .ts file, got an empty string',
    ]);
  });

  it('refuses duplicate ids (naming the first), an empty list, and both forms at once', () => {
    const dup = 'bot:\n  strategies:\n    - { id: a, strategy: market-maker }\n    - { id: a, strategy: momentum-taker }\n';
    expect(problemsOf(() => parseConfig(dup))).toEqual([
      'bot.strategies[1].id: duplicate id "a" (bot.strategies[0] has it): every strategy needs its own id',
    ]);
    expect(problemsOf(() => parseConfig('bot:\n  strategies: []\n'))).toEqual([
      'bot.strategies: list at least one strategy, or use bot.strategy with bot.params',
    ]);
    const both = 'bot:\n  strategy: market-maker\n  params: { quoteQty: "5" }\n  strategies:\n    - { id: a, strategy: market-maker }\n';
    expect(problemsOf(() => parseConfig(both))).toEqual([
      'bot.strategies: give either bot.strategies or the single form (bot.strategy with bot.params), not both: ' +
        'move bot.strategy and bot.params into an entry of bot.strategies',
    ]);
  });
});

describe('loadStrategySpecs', () => {
  it('loads each strategy with its params validated by its own schema', async () => {
    const specs = await loadStrategySpecs(parseConfig(TWO), 'bot.yaml');
    expect(specs.map((s) => [s.id, s.definition.name, s.account])).toEqual([
      ['mm-rain', 'market-maker', undefined],
      ['momo', 'momentum-taker', 'firms/demo/accounts/alice-hedge'],
    ]);
    expect((specs[0]?.params as { quoteQty: { toString(): string } }).quoteQty.toString()).toBe('5');
    expect((specs[1]?.params as { lookback: number }).lookback).toBe(10); // the plugin's default
  });

  it('the single form is one strategy whose id is its name', async () => {
    const specs = await loadStrategySpecs(parseConfig('bot:\n  strategy: momentum-taker\n  params: { symbols: [FED-CUT-2026-12] }\n'));
    expect(specs.map((s) => [s.id, s.definition.name])).toEqual([['momentum-taker', 'momentum-taker']]);
    expect(await specProblems('bot:\n  strategy: momentum-taker\n  params: { qty: "-1" }\n')).toEqual([
      'bot.params.symbols: is required (expected a list of symbols such as [RAIN-NYC-2026-12-01])',
      'bot.params.qty: must be greater than 0, got -1',
    ]);
  });

  it('reports the params problems of every strategy, an unknown strategy and looser risk limits, all at once', async () => {
    const yaml = `
bot:
  strategies:
    - id: mm
      strategy: market-maker
      params: { symbols: [RAIN-NYC-2026-12-01], quoteQty: "-5" }
      risk: { maxPosition: "80", maxOpenOrders: 50, maxOrderQty: "5" }
    - id: momo
      strategy: momentum-taker
      params: { qty: "0", lookback: 1 }
    - id: ghost
      strategy: no-such-strategy
risk:
  maxPosition: "60"
  maxOpenOrders: 40
`;
    const problems = await specProblems(yaml);
    expect(problems).toContain('bot.strategies[0].params.quoteQty: must be greater than 0, got -5');
    expect(problems).toContain(
      'bot.strategies[0].risk.maxPosition: 80 is looser than risk.maxPosition 60: ' +
        "a strategy's limits can only narrow the bot's (give at most 60)",
    );
    expect(problems).toContain(
      'bot.strategies[0].risk.maxOpenOrders: 50 is looser than risk.maxOpenOrders 40: ' +
        "a strategy's limits can only narrow the bot's (give at most 40)",
    );
    expect(problems).toContain('bot.strategies[1].params.qty: must be greater than 0, got 0');
    expect(problems.some((p) => p.startsWith('bot.strategies[1].params.lookback: '))).toBe(true);
    expect(problems.some((p) => p.startsWith('bot.strategies[1].params.symbols: '))).toBe(true);
    expect(problems.some((p) => p.startsWith('bot.strategies[2].strategy: ') && p.includes('no-such-strategy'))).toBe(true);
    expect(problems.filter((p) => p.includes('maxOrderQty'))).toEqual([]); // narrower than an unset bot limit: fine
    expect(problems).toHaveLength(7); // mm: quoteQty and two limits; momo: qty, lookback, symbols; ghost
  });
});
