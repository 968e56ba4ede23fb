/**
 * The strategy loader: plugins by name from strategies/ and by path (relative to the working directory or
 * absolute), STRATEGY_NOT_FOUND for a missing name or file, STRATEGY_INVALID_MODULE for a module that does
 * not default-export a definition, and params validated against the plugin's schema with every bad field
 * reported at once as `strategy.params.<field>` in a ConfigError.
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
    const params = validateParams(strategy, { symbols: ['RAIN-NYC-2026-12-01'], halfSpread: '0.03' }) as { halfSpread: { toString(): string }; quoteQty: { toString(): string } };
    expect(params.halfSpread.toString()).toBe('0.03');
    expect(params.quoteQty.toString()).toBe('5');
    expect(symbolsOf(strategy, params)).toEqual(['RAIN-NYC-2026-12-01']);
  });

  it('reports every bad param at once as strategy.params.<field> in a ConfigError', async () => {
    const strategy = await loadStrategy('market-maker');
    const error = thrown(() => validateParams(strategy, { symbols: [], halfSpread: 'wide', requoteTicks: -1, colour: 'blue' }));
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.path).sort()).toEqual(['strategy.params.colour', 'strategy.params.halfSpread', 'strategy.params.requoteTicks', 'strategy.params.symbols']);
    expect(problems.find((p) => p.path === 'strategy.params.colour')?.message).toMatch(/unknown key/);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    expect((error as Error).message).toContain('params of strategy market-maker');
    expect(problems.find((p) => p.path === 'strategy.params.symbols')?.message).toMatch(/at least one symbol/);
  });

  it('reports a missing required param under its name', async () => {
    const strategy = await loadStrategy('cross-demo');
    const error = thrown(() => validateParams(strategy, undefined));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.path)).toEqual(expect.arrayContaining(['strategy.params.symbol', 'strategy.params.buyAccount', 'strategy.params.sellAccount']));
  });
});
