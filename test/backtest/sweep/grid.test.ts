// Grid files: exact decimals, every problem named with its key; expansion order, merging, and the size limit.
import { describe, expect, it } from 'vitest';
import { expandGrid, gridSize, mergeParams } from '../../../backtest/sweep/expand.ts';
import { parseGrid } from '../../../backtest/sweep/grid.ts';

describe('parseGrid', () => {
  it('keeps decimals as exact text and other scalars as YAML types', () => {
    expect(parseGrid('halfSpread: [0.01, 0.02]\nquoteQty: [5, 10]\nsymbols: [[A, B], [A]]\n')).toEqual({
      halfSpread: ['0.01', '0.02'],
      quoteQty: [5, 10],
      symbols: [['A', 'B'], ['A']],
    });
  });

  it('names every bad key with the fix, under SWEEP_GRID_INVALID', () => {
    let caught: unknown;
    try {
      parseGrid('halfSpread: 0.01\nquoteQty: []\n', 'grid.yaml');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'SWEEP_GRID_INVALID', kind: 'config' });
    const message = (caught as Error).message;
    expect(message).toContain('grid.yaml has 2 problems');
    expect(message).toContain('halfSpread: expected a list of values, got "0.01" (write a single value as ["0.01"])');
    expect(message).toContain('quoteQty: the list of values is empty');
  });

  it('refuses a list, an empty file and broken YAML', () => {
    expect(() => parseGrid('- 1\n- 2\n')).toThrow(/expected a mapping of param name to a list of values/);
    expect(() => parseGrid('{}\n')).toThrow(/the grid is empty/);
    expect(() => parseGrid('a: [1\n')).toThrow(/YAML syntax error/);
  });
});

describe('expandGrid', () => {
  it('is the cartesian product, first param varying slowest', () => {
    const grid = { a: [1, 2], b: ['x', 'y', 'z'] };
    expect(gridSize(grid)).toBe(6);
    expect(expandGrid(grid)).toEqual([
      { a: 1, b: 'x' },
      { a: 1, b: 'y' },
      { a: 1, b: 'z' },
      { a: 2, b: 'x' },
      { a: 2, b: 'y' },
      { a: 2, b: 'z' },
    ]);
  });

  it('merges each combination over the base params', () => {
    expect(mergeParams({ a: 0, keep: true }, { a: 1 })).toEqual({ a: 1, keep: true });
  });

  it('refuses a grid beyond the run limit, naming its shape', () => {
    expect(() => expandGrid({ a: [1, 2, 3], b: [1, 2, 3] }, 8)).toThrow(/9 runs \(a: 3 × b: 3\), more than the limit of 8/);
  });
});
