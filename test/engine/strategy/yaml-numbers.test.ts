/**
 * Fractional YAML numbers in strategy params (src/engine/strategy/yaml-numbers.ts, through validateParams):
 * the config reader keeps `0.25` as its exact text "0.25", so `decimal()` params get exact Decimals; a plain
 * `z.number()` param (also inside objects, arrays, records and tuples) gets the number; a string that is not a
 * number is still refused, named by its YAML path.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, type ConfigProblem } from '../../../src/config/index.ts';
import { parseYaml } from '../../../src/config/yaml.ts';
import { Decimal } from '../../../src/domain/decimal.ts';
import { defineStrategy } from '../../../src/engine/strategy/define-strategy.ts';
import { validateParams } from '../../../src/engine/strategy/loader.ts';
import { decimal, z } from '../../../src/strategy.ts';

function yaml(text: string): unknown {
  const problems: ConfigProblem[] = [];
  const tree = parseYaml(text, problems);
  expect(problems).toEqual([]);
  return tree;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const zScore = defineStrategy({
  name: 'z-score',
  params: z.strictObject({
    symbols: z.array(z.string()).min(1),
    entry: z.number().positive(),
    exit: z.number().min(-5).max(5).default(0),
    halfSpread: decimal({ min: '0' }),
    maxLoss: decimal({ positive: true }).prefault('100'),
    window: z.number().int().positive().default(20),
    weights: z.strictObject({ mid: z.number(), micro: z.number().optional() }).default({ mid: 1 }),
    ladder: z.array(z.strictObject({ offset: decimal(), share: z.number().max(1) })).default([]),
    decay: z.array(z.number()).default([]),
    byHour: z.record(z.string(), z.number()).default({}),
    band: z.tuple([z.number(), z.number()]).optional(),
  }),
});

describe('fractional YAML numbers in params', () => {
  it('the config reader keeps a fraction as its exact text (the case this module exists for)', () => {
    expect(yaml('entry: 0.25\nwindow: 20\n')).toEqual({ entry: '0.25', window: 20 });
  });

  it('a z.number() param gets the number; decimal() params get exact Decimals', () => {
    const params = validateParams(
      zScore,
      yaml('symbols: [RAIN]\nentry: 0.25\nexit: -1.5e-1\nhalfSpread: 0.30000000000000001\nmaxLoss: 12.50\n'),
      'z.yaml',
    ) as Record<string, unknown>;
    expect(params['entry']).toBe(0.25);
    expect(params['exit']).toBe(-0.15);
    expect(params['window']).toBe(20);
    expect(params['halfSpread']).toBeInstanceOf(Decimal);
    // a binary float would have made this 0.3
    expect((params['halfSpread'] as Decimal).toString()).toBe('0.30000000000000001');
    expect((params['maxLoss'] as Decimal).equals(new Decimal('12.5'))).toBe(true);
  });

  it('inside objects, arrays of objects (beside decimal() fields), arrays, records and tuples', () => {
    const raw = yaml(
      [
        'symbols: [RAIN]',
        'entry: 2',
        'halfSpread: 0.02',
        'weights: { mid: 0.75, micro: .25 }',
        'ladder:',
        '  - { offset: 0.01, share: 0.6 }',
        '  - { offset: 0.10, share: 0.4 }',
        'decay: [0.5, 0.25, 1]',
        'byHour: { "09": 0.9, "16": 1.1 }',
        'band: [-0.5, 0.5]',
        '',
      ].join('\n'),
    );
    const params = validateParams(zScore, raw, 'z.yaml') as {
      weights: unknown;
      ladder: { offset: Decimal; share: number }[];
      decay: unknown;
      byHour: unknown;
      band: unknown;
    };
    expect(params.weights).toEqual({ mid: 0.75, micro: 0.25 });
    expect(params.ladder.map((rung) => rung.share)).toEqual([0.6, 0.4]);
    expect(params.ladder.every((rung) => rung.offset instanceof Decimal)).toBe(true);
    // the decimal keeps its written form (a string "0.10", not the number 0.1)
    expect(params.ladder.map((rung) => rung.offset.toFixed(2))).toEqual(['0.01', '0.10']);
    expect(params.decay).toEqual([0.5, 0.25, 1]);
    expect(params.byHour).toEqual({ '09': 0.9, '16': 1.1 });
    expect(params.band).toEqual([-0.5, 0.5]);
  });

  it("the number still meets the schema's checks: a fraction for an int param, or out of range, is refused as a number", () => {
    const error = thrown(() =>
      validateParams(zScore, yaml('symbols: [RAIN]\nentry: 0.25\nhalfSpread: 0.02\nwindow: 2.5\nexit: 7.5\n'), 'z.yaml'),
    );
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.path).sort()).toEqual(['bot.params.exit', 'bot.params.window']);
    expect(problems.find((p) => p.path === 'bot.params.window')?.message).toBe('expected a whole number, got 2.5');
    expect(problems.find((p) => p.path === 'bot.params.exit')?.message).not.toContain('"7.5"');
  });

  it('a string that is not a number is refused for z.number(), named by its path and value', () => {
    const error = thrown(() =>
      validateParams(zScore, yaml('symbols: [RAIN]\nentry: high\nhalfSpread: 0.02\nweights: { mid: 0.5x }\n'), 'z.yaml'),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      [
        'z.yaml (params of strategy z-score) has 2 problems:',
        '  bot.params.entry: expected a number, got "high"',
        '  bot.params.weights.mid: expected a number, got "0.5x"',
      ].join('\n'),
    );
  });

  it('a numeric string is not turned into a number where the schema wants a string', () => {
    const tags = defineStrategy({ name: 'tags', params: z.strictObject({ label: z.string(), ratio: z.number() }) });
    expect(validateParams(tags, yaml('label: 1.50\nratio: 1.50\n'), { file: 'p.yaml', path: '' })).toEqual({ label: '1.50', ratio: 1.5 });
  });

  it('a bad decimal() value next to a fractional z.number() is reported alone', () => {
    const error = thrown(() =>
      validateParams(zScore, yaml('symbols: [RAIN]\nentry: 0.5\nhalfSpread: wide\n'), { file: 'p.yaml', path: '' }),
    );
    expect((error as ConfigError).problems).toEqual([
      { path: 'halfSpread', message: 'expected a decimal string such as "0.55", got "wide"' },
    ]);
  });

  it('a fraction reaches z.number() inside a union (zod reports invalid_union there, not invalid_type)', () => {
    const strategy = defineStrategy({ name: 'u', params: z.object({ stop: z.union([z.number(), z.literal('off')]) }) });
    expect(validateParams(strategy, parseYaml('stop: 0.25\n', []), 'u.yaml')).toEqual({ stop: 0.25 });
    expect(validateParams(strategy, parseYaml('stop: "off"\n', []), 'u.yaml')).toEqual({ stop: 'off' });
  });
});
