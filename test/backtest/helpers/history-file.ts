/**
 * Hand-written history files for pipeline tests: a header for synthetic instruments (raw prices 1..99,
 * price scale 100) and one trade line per row, in the exchange's family A form; plus scripted strategies.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { encodeHeader, type RecordedSettlement } from '../../../backtest/history/format.ts';
import { syntheticInstrument, syntheticTradeLine } from '../../../backtest/tape/synthetic-history.ts';
import { parseConfig } from '../../../src/config/index.ts';
import type { BacktestConfig } from '../../../backtest/config.ts';
import { backtestSection } from '../../../backtest/config.ts';
import { defineStrategy, type StrategyContext } from '../../../src/engine/strategy/define-strategy.ts';
import type { BookView, OrderUpdateView } from '../../../src/engine/strategy/views.ts';

export const T0 = Date.UTC(2026, 10, 30, 14, 0, 0);

export interface Row {
  /** ms after T0. */
  readonly at: number;
  readonly price: number;
  readonly qty: number;
  readonly side: 'buy' | 'sell';
  readonly symbol?: string;
  /** Trade number (ids); default: the row's index + 1. */
  readonly n?: number;
  readonly state?: 'TRADE_STATE_NEW' | 'TRADE_STATE_BUSTED';
}

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'tradebot-bt-'));
}

export function writeHistory(
  file: string,
  rows: readonly Row[],
  options: { symbols?: string[]; expiration?: number; toMs?: number; settlements?: readonly RecordedSettlement[] } = {},
): string {
  const symbols = options.symbols ?? ['SYN-A'];
  const header = encodeHeader({
    kind: 'history',
    source: 'familyA',
    symbols,
    from: T0,
    to: T0 + (options.toMs ?? 600_000),
    instruments: symbols.map((s, i) => syntheticInstrument(s, i === 0 ? options.expiration : undefined)),
    ...(options.settlements === undefined ? {} : { settlements: options.settlements }),
  });
  const lines = rows.map((r, i) =>
    syntheticTradeLine(
      'full',
      r.n ?? i + 1,
      r.symbol ?? (symbols[0] as string),
      r.side === 'buy',
      r.price,
      r.qty,
      new Date(T0 + r.at).toISOString(),
      r.state ?? 'TRADE_STATE_NEW',
    ),
  );
  writeFileSync(file, header + lines.join(''));
  return file;
}

/** A backtest config: no risk limits beyond the defaults, the given `backtest` section. */
export function testConfig(backtest: Record<string, unknown> = {}): BacktestConfig {
  const base = parseConfig('bot: { account: firms/test/accounts/bot }\n');
  return { ...base, backtest: backtestSection().parse(backtest) } as BacktestConfig;
}

export interface Script {
  onBook?(ctx: StrategyContext<{ symbols: string[] }>, book: BookView): void;
  onOrderUpdate?(ctx: StrategyContext<{ symbols: string[] }>, update: OrderUpdateView): void;
}

/** A strategy whose callbacks the test writes. */
export function scripted(script: Script) {
  return defineStrategy({
    name: 'scripted',
    params: z.strictObject({ symbols: z.array(z.string()) }),
    onBook: (ctx, book) => script.onBook?.(ctx, book),
    onOrderUpdate: (ctx, update) => script.onOrderUpdate?.(ctx, update),
  });
}
