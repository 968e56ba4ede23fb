/**
 * The hot-path decoders (executions and market data updates) stay cheap. Bounds are generous so the
 * suite is not flaky on a slow machine; the measured numbers are printed for the record.
 */
import { expect, test } from 'vitest';
import { gateway } from '../../src/domain/index.ts';
import { SCALES, book, execution } from './fixtures.ts';

function microsPerCall(fn: () => unknown, iterations: number): number {
  for (let i = 0; i < 200; i++) fn();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return ((performance.now() - start) * 1000) / iterations;
}

test('decoding one fully populated execution takes well under 100 microseconds', () => {
  const wire = JSON.parse(JSON.stringify(gateway.execution.encode(execution, SCALES))) as unknown;
  const us = microsPerCall(() => gateway.execution.decode(wire, SCALES), 5000);
  console.log(`execution decode: ${us.toFixed(2)} us/op`);
  expect(us).toBeLessThan(100);
});

test('decoding a market data update takes well under 50 microseconds', () => {
  const wire = JSON.parse(JSON.stringify(gateway.marketDataStream.encode({ kind: 'update', ...book }, SCALES))) as unknown;
  const us = microsPerCall(() => gateway.marketDataStream.decode(wire, SCALES), 10000);
  console.log(`market data update decode: ${us.toFixed(2)} us/op`);
  expect(us).toBeLessThan(50);
});
