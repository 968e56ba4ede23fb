/**
 * Writes a synthetic history file (what `history fetch` writes, family A source), for the benchmark and the
 * streaming tests: per symbol a mid that moves one tick now and then, trades that alternately lift the offer
 * and hit the bid around it (bid-ask bounce), seeded and deterministic. `format` (default compact): compact
 * lines (history/compact-trade.ts, ~150 bytes), or the exchange's full records in family A naming, which carry
 * both executions with their whole orders like the simulator's (`detail` full, ~1.7 KB a line) or only the
 * fields a valid Trade needs (`detail` minimal, ~0.6 KB). The same options give the same trades in either
 * format. `bustEvery` adds, a few lines after every n-th trade, a TRADE_STATE_BUSTED record of it.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Decimal } from '../../src/domain/decimal.ts';
import type { Instrument } from '../../src/domain/index.ts';
import { seededRandom } from '../../src/sim/activity/random.ts';
import { encodeHeader, type HistoryFormat } from '../history/format.ts';

export interface SyntheticOptions {
  readonly trades: number;
  readonly symbols?: readonly string[];
  readonly seed?: number;
  readonly startMs?: number;
  /** Mean ms between trades. */
  readonly spacingMs?: number;
  /** Probability per trade that the symbol's mid moves one tick. */
  readonly moveProbability?: number;
  /** The history format written (default compact). */
  readonly format?: HistoryFormat;
  /** Full format only: whole orders in both executions (default) or the minimal fields of a valid Trade. */
  readonly detail?: SyntheticDetail;
  readonly bustEvery?: number;
  /** Expiration (epoch ms) given to the first symbol's instrument. */
  readonly expiration?: number;
}

export function syntheticInstrument(symbol: string, expiration?: number): Instrument {
  return {
    symbol,
    description: `synthetic ${symbol}`,
    state: 'INSTRUMENT_STATE_OPEN',
    priceScale: 100,
    fractionalQtyScale: 1,
    tickSize: new Decimal('0.01'),
    lowPriceLimit: new Decimal('0.01'),
    highPriceLimit: new Decimal('0.99'),
    minimumTradeQty: new Decimal(1),
    currency: 'USD',
    eventId: `EVT-${symbol}`,
    eventDescription: '',
    tradingStartTime: undefined,
    expirationTime: expiration,
    lastTradeDate: undefined,
    settlementTime: expiration,
  };
}

/** How much of each execution a full-format synthetic line carries. */
export type SyntheticDetail = 'full' | 'minimal';

const pad = (n: number) => String(n).padStart(16, '0');

function order(
  form: SyntheticDetail,
  id: number,
  account: string,
  symbol: string,
  side: string,
  tif: string,
  state: string,
  qty: number,
  price: number,
  time: string,
): string {
  if (form === 'minimal')
    return (
      `{"id":"O${pad(id)}","account":"${account}","symbol":"${symbol}","side":"${side}",` +
      '"type":"ORDER_TYPE_LIMIT","priceScale":"100","fractionalQuantityScale":"1"}'
    );
  return (
    `{"id":"O${pad(id)}","clordId":"sim-${id}","account":"${account}",` +
    '"participant":"firms/sim-liquidity/users/activity","submittingParticipant":"firms/sim-liquidity/users/activity",' +
    `"symbol":"${symbol}","side":"${side}","type":"ORDER_TYPE_LIMIT","timeInForce":"${tif}","state":"${state}",` +
    `"orderQty":"${qty}","cumQty":"${qty}","price":"${price}","avgPx":"${price}",` +
    `"createTime":"${time}","insertTime":"${time}","lastTransactTime":"${time}","priceScale":"100","fractionalQuantityScale":"1"}`
  );
}

/** One full-format trade line (n: the trade's sequence, which makes its ids; price in ticks of 0.01). */
export function syntheticTradeLine(
  form: SyntheticDetail,
  n: number,
  symbol: string,
  buy: boolean,
  price: number,
  qty: number,
  time: string,
  state: string,
): string {
  const aggSide = buy ? 'SIDE_BUY' : 'SIDE_SELL';
  const pasSide = buy ? 'SIDE_SELL' : 'SIDE_BUY';
  const tid = `T${pad(n)}`;
  const agg = order(
    form,
    2 * n,
    `firms/sim-liquidity/accounts/taker-${symbol}`,
    symbol,
    aggSide,
    'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
    'ORDER_STATE_FILLED',
    qty,
    price,
    time,
  );
  const pas = order(
    form,
    2 * n + 1,
    `firms/sim-liquidity/accounts/maker-0-${symbol}`,
    symbol,
    pasSide,
    'TIME_IN_FORCE_DAY',
    'ORDER_STATE_PARTIALLY_FILLED',
    qty * 2,
    price,
    time,
  );
  return (
    `{"type":"trade","trade":{"id":"${tid}",` +
    `"aggressor":{"id":"E${pad(2 * n)}","order":${agg},"tradeId":"${tid}","lastPx":"${price}","lastShares":"${qty}",` +
    `"aggressor":true,"type":"EXECUTION_TYPE_FILL","transactTime":"${time}"},` +
    `"passive":{"id":"E${pad(2 * n + 1)}","order":${pas},"tradeId":"${tid}","lastPx":"${price}","lastShares":"${qty}",` +
    `"type":"EXECUTION_TYPE_PARTIAL_FILL","transactTime":"${time}"},` +
    `"tradeType":"TRADE_TYPE_REGULAR","state":"${state}","reportingCounterparty":"${aggSide}"}}\n`
  );
}

/** The same trade as a compact line (history/compact-trade.ts): price in ticks of 0.01 at price scale 100. */
export function syntheticCompactLine(
  n: number,
  symbol: string,
  buy: boolean,
  price: number,
  qty: number,
  time: string,
  state: string,
): string {
  const px =
    price % 100 === 0
      ? String(price / 100)
      : `${Math.floor(price / 100)}.${String(price % 100)
          .padStart(2, '0')
          .replace(/0$/, '')}`;
  return (
    `{"type":"trade","id":"T${pad(n)}","symbol":"${symbol}","price":"${px}","qty":"${qty}",` +
    `"side":"${buy ? 'BUY' : 'SELL'}","time":"${time}","state":"${state}"}\n`
  );
}

/** Writes the file; resolves with the time of the last trade. */
export async function writeSyntheticHistory(file: string, options: SyntheticOptions): Promise<{ lastTime: number; bytes: number }> {
  const symbols = options.symbols ?? ['SYN-A', 'SYN-B', 'SYN-C'];
  const random = seededRandom(options.seed ?? 1);
  const start = options.startMs ?? Date.UTC(2026, 10, 30, 14, 0, 0);
  const spacing = options.spacingMs ?? 50;
  const move = options.moveProbability ?? 0.05;
  const format = options.format ?? 'compact';
  const detail = options.detail ?? 'full';
  const line = (n: number, symbol: string, buy: boolean, price: number, qty: number, time: string, state: string) =>
    format === 'compact'
      ? syntheticCompactLine(n, symbol, buy, price, qty, time, state)
      : syntheticTradeLine(detail, n, symbol, buy, price, qty, time, state);
  const mids = symbols.map(() => random.int(30, 70));
  const pendingBusts: { at: number; line: string }[] = [];
  const out = createWriteStream(file);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += text.length;
    if (!out.write(text)) await once(out, 'drain');
  };
  let time = start;
  let chunk = encodeHeader({
    kind: 'history',
    format,
    source: 'familyA',
    symbols,
    from: start,
    to: start + Math.ceil(options.trades * spacing * 1.5) + 1000,
    instruments: symbols.map((s, i) => syntheticInstrument(s, i === 0 ? options.expiration : undefined)),
  });
  for (let n = 1; n <= options.trades; n++) {
    time += random.int(0, 2 * spacing);
    const k = random.int(0, symbols.length - 1);
    const symbol = symbols[k] as string;
    if (random.chance(move)) mids[k] = Math.min(95, Math.max(5, (mids[k] as number) + (random.chance(0.5) ? 1 : -1)));
    const buy = random.chance(0.5);
    const price = buy ? (mids[k] as number) + 1 : (mids[k] as number);
    const qty = random.int(1, 10);
    const iso = new Date(time).toISOString();
    chunk += line(n, symbol, buy, price, qty, iso, 'TRADE_STATE_NEW');
    if (options.bustEvery !== undefined && n % options.bustEvery === 0)
      pendingBusts.push({ at: n + 3, line: line(n, symbol, buy, price, qty, iso, 'TRADE_STATE_BUSTED') });
    while (pendingBusts.length > 0 && (pendingBusts[0] as { at: number }).at <= n) chunk += (pendingBusts.shift() as { line: string }).line;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  for (const b of pendingBusts) chunk += b.line;
  await write(chunk);
  out.end();
  await once(out, 'finish');
  return { lastTime: time, bytes };
}
