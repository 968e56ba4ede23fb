/**
 * What must hold after any fault, once the bot has recovered and gone quiet (market activity stopped, the
 * faults cleared, nothing in flight):
 * - no order sent twice: every (account, clord_id) of the bot maps to at most one order on the exchange,
 *   and every order the exchange has for the bot's accounts is one the bot's tracker knows;
 * - no fill lost or counted twice: the portfolio's positions equal the exchange's ledger per account and
 *   symbol (and, where no reconciliation could have papered over a gap, so do the tracker's fills);
 * - the bot's open orders are the exchange's open orders of its accounts, none left pending or UNKNOWN;
 * - the bot's book is the exchange's (every level to the streamed depth), fresh;
 * - trading is active again, and no promise rejection went unhandled;
 * - with the order journal on: no insert clord_id journaled twice, and every order the exchange has for the
 *   bot's accounts was journaled (its request line was written before it was sent).
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { marketSnapshot } from '../../../src/sim/exchange/market-view.ts';
import { MARKET_DATA_DEPTH_DEFAULT } from '../../../src/domain/limits.ts';
import type { LiveBot, Positions } from './live-bot.ts';
import { BOT_ACCOUNTS, SYMBOL } from './live-bot.ts';

const PENDING = new Set(['PENDING_NEW', 'PENDING_CANCEL', 'PENDING_REPLACE', 'UNKNOWN']);

function exchangeOpen(bot: LiveBot): string[] {
  return BOT_ACCOUNTS.flatMap((account) => bot.sim.core.openOrders({ account }).map((o) => o.orderId)).sort();
}

function localOpen(bot: LiveBot): string[] {
  return bot.pipeline.tracker
    .open()
    .map((o) => o.orderId ?? `(no id: ${o.clordId} ${o.state})`)
    .sort();
}

function positionsText(p: Positions): string {
  return JSON.stringify([...p.entries()].filter(([, q]) => q !== 0).sort());
}

function samePositions(a: Positions, b: Positions): boolean {
  return positionsText(a) === positionsText(b);
}

type Level = { price: { toString(): string }; qty: { toString(): string } };
const sideText = (levels: readonly Level[]) => levels.map((l) => `${l.price.toString()}x${l.qty.toString()}`).join(' ');
const bookText = (bids: readonly Level[], offers: readonly Level[]) => `bids ${sideText(bids)} | offers ${sideText(offers)}`;

/** The exchange's book of `symbol` (to the streamed depth) and the bot's, as "price x qty" levels per side. */
export function books(bot: LiveBot, symbol = SYMBOL): { exchange: string; bot: string } {
  const exchange = marketSnapshot(bot.sim.core, symbol, MARKET_DATA_DEPTH_DEFAULT);
  const local = bot.pipeline.books.get(symbol);
  const levels = (list: readonly { px: Level['price']; qty: Level['qty'] }[]): Level[] => list.map((l) => ({ price: l.px, qty: l.qty }));
  return {
    exchange: exchange === undefined ? '(no book)' : bookText(levels(exchange.bids), levels(exchange.offers)),
    bot: local === undefined ? '(no book)' : bookText(local.bids, local.offers),
  };
}

/** Why the bot and the exchange do not agree yet ('' when they do). */
export function disagreement(bot: LiveBot): string {
  const problems: string[] = [];
  if (bot.venue.inFlight > 0) problems.push(`${bot.venue.inFlight} venue calls in flight`);
  const pending = bot.pipeline.tracker.open().filter((o) => PENDING.has(o.state));
  if (pending.length > 0) problems.push(`pending orders ${pending.map((o) => `${o.clordId}:${o.state}`).join(', ')}`);
  if (bot.pipeline.risk.tradingState.state !== 'active') problems.push(`trading ${bot.pipeline.risk.tradingState.state}`);
  if (bot.pipeline.books.get(SYMBOL)?.stale !== false) problems.push('book stale');
  const book = books(bot);
  if (book.exchange !== book.bot) problems.push(`book: exchange ${book.exchange} || bot ${book.bot}`);
  const ex = exchangeOpen(bot);
  const local = localOpen(bot);
  if (ex.join() !== local.join()) problems.push(`open orders: exchange ${ex.join(' ')} | bot ${local.join(' ')}`);
  if (!samePositions(bot.exchangePositions(), bot.localPositions()))
    problems.push(`positions: exchange ${positionsText(bot.exchangePositions())} | bot ${positionsText(bot.localPositions())}`);
  return problems.join('; ');
}

/** The complete lines of a journal file, parsed (a line being written is left out). */
export function journalLines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Insert (and cross) clordIds journaled more than once, and every clordId a request line names. */
export function journaledRequests(file: string): { repeatedInserts: string[]; requested: Set<string> } {
  const requests = journalLines(file).filter((l) => l['type'] === 'request');
  const inserts = requests.filter((l) => l['kind'] === 'insert' || l['kind'] === 'cross').map((l) => String(l['clordId']));
  return {
    repeatedInserts: inserts.filter((c, i) => inserts.indexOf(c) !== i),
    requested: new Set(requests.map((l) => String(l['clordId']))),
  };
}

/** Stops activity and faults, waits until the bot agrees with the exchange, then asserts the invariants. */
export async function expectRecovered(bot: LiveBot, options: { fillsMatch?: boolean; timeoutMs?: number } = {}): Promise<void> {
  bot.sim.activity?.stop();
  bot.sim.faults.clear();
  await bot.waitUntil(
    () => disagreement(bot) === '',
    'the bot agrees with the exchange',
    options.timeoutMs ?? 30_000,
    () => disagreement(bot),
  );

  // no order sent twice
  const duplicates = [...bot.exchangeOrdersByClord.entries()].filter(([, ids]) => ids.size > 1);
  expect(duplicates).toEqual([]);
  const historyByClord = new Map<string, number>();
  for (const record of bot.sim.core.allOrders()) {
    const account = record.latest.order.account;
    if (!(BOT_ACCOUNTS as readonly string[]).includes(account)) continue;
    const clordId = record.firstClordId ?? '';
    historyByClord.set(`${account} ${clordId}`, (historyByClord.get(`${account} ${clordId}`) ?? 0) + 1);
    expect(bot.pipeline.tracker.get(clordId), `exchange order ${record.latest.orderId} (${clordId}) is known to the bot`).toBeDefined();
  }
  expect([...historyByClord.entries()].filter(([, n]) => n > 1)).toEqual([]);
  if (bot.journalFile !== undefined) {
    const { repeatedInserts, requested } = journaledRequests(bot.journalFile);
    expect(repeatedInserts, 'an insert journaled twice').toEqual([]);
    const unjournaled = [...bot.sim.core.allOrders()].filter(
      (r) => (BOT_ACCOUNTS as readonly string[]).includes(r.latest.order.account) && !requested.has(r.firstClordId ?? ''),
    );
    expect(
      unjournaled.map((r) => r.firstClordId),
      'exchange orders with no request line in the journal',
    ).toEqual([]);
  }

  // no fill lost or double counted; open orders agree
  expect(positionsText(bot.localPositions())).toBe(positionsText(bot.exchangePositions()));
  if (options.fillsMatch === true) expect(positionsText(bot.trackedFills)).toBe(positionsText(bot.exchangePositions()));
  expect(localOpen(bot)).toEqual(exchangeOpen(bot));
  const book = books(bot);
  expect(book.bot, "the bot's book").toBe(book.exchange);

  expect(bot.pipeline.risk.tradingState.state).toBe('active');
  expect(bot.rejections).toEqual([]);
}

/** The trading state went restricted (reducing or halted) for the feed, and came back to active. */
export function expectFeedCycle(bot: LiveBot): void {
  const feed = bot.stateChanges.filter((c) => c.cause === 'feed');
  expect(feed.some((c) => c.to === 'reducing' || c.to === 'halted')).toBe(true);
  expect(feed.at(-1)?.to).toBe('active');
}
