/**
 * The strategy loader: plugins by name from strategies/ and by path (relative to the working directory or
 * absolute), STRATEGY_NOT_FOUND for a missing name or file, STRATEGY_INVALID_MODULE for a module that does
 * not default-export a definition, and params validated against the plugin's schema with every bad field
 * reported at once in a ConfigError under the file and YAML path the params came from (`bot.params.<field>` of
 * a config file, `<field>` of a --params file, `strategy.params.<field>` when assembled by a tool).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/index.ts';
import { isTradebotError } from '../../../src/errors.ts';
import { STRATEGIES_DIR, loadStrategy, resolveStrategyPath, validateParams } from '../../../src/engine/strategy/loader.ts';
import { symbolsOf } from '../../../src/engine/strategy/define-strategy.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('strategy loader', () => {
  it.for(['market-maker', 'momentum-taker', 'cross-demo'])('loads %s by name from strategies/', async (name) => {
    const strategy = await loadStrategy(name);
    expect(strategy.name).toBe(name);
    expect(typeof strategy.params.safeParse).toBe('function');
    expect(resolveStrategyPath(name)).toBe(path.join(STRATEGIES_DIR, `${name}.ts`));
  });

  it('loads a plugin by a path relative to the working directory and by an absolute path', async () => {
    const relative = await loadStrategy('test/engine/strategy/fixtures/echo-strategy.ts', ROOT);
    const absolute = await loadStrategy(path.join(FIXTURES, 'echo-strategy.ts'));
    expect(relative.name).toBe('echo-fixture');
    expect(absolute).toBe(relative);
  });

  it('refuses an unknown name with STRATEGY_NOT_FOUND naming the strategies folder', async () => {
    const error = await failure(loadStrategy('no-such-strategy'));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_NOT_FOUND');
    expect((error as Error).message).toContain('no strategy named "no-such-strategy"');
    expect((error as Error).message).toContain(STRATEGIES_DIR);
  });

  it('refuses a missing file with STRATEGY_NOT_FOUND naming the resolved path', async () => {
    const error = await failure(loadStrategy('./plugins/missing.ts', ROOT));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_NOT_FOUND');
    expect((error as Error).message).toContain(path.join(ROOT, 'plugins', 'missing.ts'));
  });

  it('refuses a module that does not default-export a strategy with STRATEGY_INVALID_MODULE', async () => {
    const error = await failure(loadStrategy(path.join(FIXTURES, 'not-a-strategy.ts')));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_INVALID_MODULE');
    expect((error as Error).message).toMatch(/must default-export defineStrategy/);
  });

  it('validates params with the plugin schema, filling defaults', async () => {
    const strategy = await loadStrategy('market-maker');
    const params = validateParams(strategy, { symbols: ['RAIN-NYC-2026-12-01'], halfSpread: '0.03' }) as {
      halfSpread: { toString(): string };
      quoteQty: { toString(): string };
    };
    expect(params.halfSpread.toString()).toBe('0.03');
    expect(params.quoteQty.toString()).toBe('5');
    expect(symbolsOf(strategy, params)).toEqual(['RAIN-NYC-2026-12-01']);
  });

  it('reports every bad param at once, under bot.params of the config file it came from', async () => {
    const strategy = await loadStrategy('market-maker');
    const error = thrown(() =>
      validateParams(strategy, { symbols: [], halfSpread: 'wide', requoteTicks: -1, colour: 'blue' }, 'config/mm.yaml'),
    );
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.path).sort()).toEqual([
      'bot.params.colour',
      'bot.params.halfSpread',
      'bot.params.requoteTicks',
      'bot.params.symbols',
    ]);
    expect(problems.find((p) => p.path === 'bot.params.colour')?.message).toMatch(/unknown key/);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    expect((error as Error).message.split('\n')[0]).toBe('config/mm.yaml (params of strategy market-maker) has 4 problems:');
    expect(problems.find((p) => p.path === 'bot.params.symbols')?.message).toMatch(/at least one symbol/);
  });

  it('names the keys of a --params file at its root, and the file', async () => {
    const strategy = await loadStrategy('market-maker');
    const error = thrown(() => validateParams(strategy, { symbols: ['X'], halfSpread: '-1x' }, { file: 'mm-params.yaml', path: '' }));
    expect((error as Error).message).toBe(
      'mm-params.yaml (params of strategy market-maker) has 1 problem:\n  halfSpread: expected a decimal string such as "0.55", got "-1x"',
    );
  });

  it('without a file: strategy.params.<field> (params a tool assembled), and bot.params.<field> when told so', async () => {
    const strategy = await loadStrategy('cross-demo');
    const error = thrown(() => validateParams(strategy, undefined));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.path)).toEqual(
      expect.arrayContaining(['strategy.params.symbol', 'strategy.params.buyAccount', 'strategy.params.sellAccount']),
    );
    expect((error as Error).message).toContain('params of strategy cross-demo has');
    const named = thrown(() => validateParams(strategy, {}, { path: 'bot.params' }));
    expect((named as ConfigError).problems.map((p) => p.path)).toEqual(expect.arrayContaining(['bot.params.symbol']));
  });
});
