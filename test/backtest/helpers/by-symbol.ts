/**
 * report.json's bySymbol adds up to its totals exactly: PnL (total, realized, unrealized), fees and turnover as
 * exact decimals, fills and orders as counts.
 */
import { expect } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';

interface SymbolPart {
  readonly pnl: { readonly total: string; readonly realized: string; readonly unrealized: string };
  readonly fees: string;
  readonly fills: number;
  readonly orders: number;
  readonly turnover: string;
}

export function expectBySymbolAddsUp(report: Readonly<Record<string, unknown>>): Record<string, SymbolPart> {
  const parts = report['bySymbol'] as Record<string, SymbolPart>;
  expect(parts).toBeDefined();
  const list = Object.values(parts);
  const sum = (pick: (p: SymbolPart) => string) => list.reduce((acc, p) => acc.plus(pick(p)), new Decimal(0)).toString();
  const pnl = report['pnl'] as SymbolPart['pnl'];
  expect({
    total: sum((p) => p.pnl.total),
    realized: sum((p) => p.pnl.realized),
    unrealized: sum((p) => p.pnl.unrealized),
    fees: sum((p) => p.fees),
    turnover: sum((p) => p.turnover),
    fills: list.reduce((n, p) => n + p.fills, 0),
    orders: list.reduce((n, p) => n + p.orders, 0),
  }).toEqual({
    total: new Decimal(pnl.total).toString(),
    realized: new Decimal(pnl.realized).toString(),
    unrealized: new Decimal(pnl.unrealized).toString(),
    fees: new Decimal(report['fees'] as string).toString(),
    turnover: new Decimal(report['turnover'] as string).toString(),
    fills: report['fills'],
    orders: report['orders'],
  });
  return parts;
}
