/**
 * One history line -> the few facts replay needs (TradeFields: id hash, instrument index, raw price and
 * quantity, aggressor side, time, whether the trade stands), keeping Decimal, full decoding and per-line
 * objects off the hot path (the parser fills one reused TradeFields).
 *
 * Lazy: the fast path reads the line's bytes in the canonical layout of the file's format (compact lines:
 * compact-scan.ts; the exchange's full records: trade-scan.ts); anything it is not sure of (other key order,
 * numbers instead of strings, leg prices, an offset timestamp, escapes) takes the full path: the line decoded
 * as UTF-8, JSON.parse and strict validation (compact: history/compact-trade.ts `decodeCompactTrade`; full:
 * the family's `trade` codec), its errors typed (BACKTEST_BAD_LINE, BACKTEST_UNKNOWN_SYMBOL) and naming
 * file:line and the field. Both paths give the same facts (tested on the sample history and generated lines).
 */
import type { Instrument, Trade } from '../../src/domain/index.ts';
import { familyA, gateway, decimalToRawInt, scalesOf, type InstrumentScales } from '../../src/domain/index.ts';
import { describeError } from '../../src/errors.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { decodeCompactTrade, type CompactTrade } from '../history/compact-trade.ts';
import type { HistoryFormat, HistorySource } from '../history/format.ts';
import { createLineScanner, type ScannerSpec } from './line-scanner.ts';
import { idKey, Scan, type LineScanner, type TradeFields } from './trade-scan.ts';

export { idKey, newTradeFields, type TradeFields } from './trade-scan.ts';

/** What a line scanner needs of a history (for the tape worker too): from its header's format, source and instruments. */
export function scannerSpec(format: HistoryFormat, source: HistorySource, instruments: readonly Instrument[]): ScannerSpec {
  return {
    format,
    source,
    symbols: instruments.map((i) => i.symbol),
    digits: instruments.map((i) => {
      const scales = scalesOf(i);
      return { price: scales.priceDigits, qty: scales.qtyDigits };
    }),
  };
}

const NOT_STANDING = new Set(['TRADE_STATE_BUSTED', 'TRADE_STATE_REJECTED']);

export class TradeLineParser {
  readonly scanner: LineScanner;
  private readonly codec: typeof familyA.trade;
  private readonly scales: Map<string, InstrumentScales>;
  private readonly index: Map<string, number>;
  /** Lines that needed the full path (diagnostics). */
  fullParses = 0;

  constructor(
    private readonly source: HistorySource,
    instruments: readonly Instrument[],
    private readonly file: string,
    private readonly format: HistoryFormat,
  ) {
    this.scanner = createLineScanner(scannerSpec(format, source, instruments));
    this.codec = source === 'gateway' ? gateway.trade : familyA.trade;
    this.scales = new Map(instruments.map((i) => [i.symbol, scalesOf(i)]));
    this.index = new Map(instruments.map((i, k) => [i.symbol, k]));
  }

  /** Fills `out` from line `lineNo`, the bytes buf[start, end). */
  parse(buf: Buffer, start: number, end: number, lineNo: number, out: TradeFields): void {
    const scan = this.scanner.scan(buf, start, end, out);
    if (scan === Scan.OK) return;
    if (scan === Scan.UNKNOWN_SYMBOL) throw this.unknownSymbol(lineNo, this.scanner.unknownSymbol);
    this.full(buf.toString('utf8', start, end), lineNo, out);
  }

  /** The fast path alone on a line given as text (tests): true when it read the line. */
  fast(line: string, out: TradeFields): boolean {
    const buf = Buffer.from(line, 'utf8');
    return this.scanner.scan(buf, 0, buf.length, out) === Scan.OK;
  }

  /** The full path: JSON.parse and strict validation (compact lines) or the strict codec (full records). */
  full(text: string, lineNo: number, out: TradeFields): void {
    this.fullParses++;
    if (this.format === 'compact') {
      this.fullCompact(text, lineNo, out);
      return;
    }
    let trade: Trade;
    try {
      const json = JSON.parse(text) as { type?: unknown; trade?: unknown };
      if (json.type !== 'trade') throw new Error(`type is ${JSON.stringify(json.type)}, expected "trade"`);
      trade = this.codec.decode(json.trade, (symbol) => this.scales.get(symbol));
    } catch (error) {
      const unknown = /no instrument scales for symbol|SCALE_UNKNOWN_SYMBOL/.test(describeError(error));
      throw backtestError(
        unknown ? BacktestErrorCode.UNKNOWN_SYMBOL : BacktestErrorCode.BAD_LINE,
        `${this.file}:${lineNo}: not a ${this.source} trade line: ${describeError(error)}`,
        { cause: error },
      );
    }
    const aggressor = trade.aggressor;
    const symbol = aggressor.order.symbol;
    const scales = this.scales.get(symbol);
    const sym = this.index.get(symbol);
    const time = aggressor.transactTime ?? trade.passive.transactTime;
    if (scales === undefined || sym === undefined) throw this.unknownSymbol(lineNo, symbol);
    if (time === undefined) throw backtestError(BacktestErrorCode.BAD_LINE, `${this.file}:${lineNo}: the trade has no transact time`);
    out.key = idKey(trade.id);
    out.sym = sym;
    out.price = decimalToRawInt(aggressor.lastPx, scales, 'price', 'lastPx');
    out.qty = decimalToRawInt(aggressor.lastShares, scales, 'qty', 'lastShares');
    out.buy = aggressor.order.side === 'SIDE_BUY';
    out.time = time;
    out.stands = !NOT_STANDING.has(trade.state);
  }

  private fullCompact(text: string, lineNo: number, out: TradeFields): void {
    let trade: CompactTrade;
    try {
      trade = decodeCompactTrade(JSON.parse(text));
    } catch (error) {
      throw backtestError(BacktestErrorCode.BAD_LINE, `${this.file}:${lineNo}: not a compact trade line: ${describeError(error)}`, {
        cause: error,
      });
    }
    const scales = this.scales.get(trade.symbol);
    const sym = this.index.get(trade.symbol);
    if (scales === undefined || sym === undefined) throw this.unknownSymbol(lineNo, trade.symbol);
    let price: number;
    let qty: number;
    try {
      price = decimalToRawInt(trade.price, scales, 'price', 'price');
      qty = decimalToRawInt(trade.qty, scales, 'qty', 'qty');
    } catch (error) {
      throw backtestError(BacktestErrorCode.BAD_LINE, `${this.file}:${lineNo}: not a compact trade line: ${describeError(error)}`, {
        cause: error,
      });
    }
    out.key = idKey(trade.id);
    out.sym = sym;
    out.price = price;
    out.qty = qty;
    out.buy = trade.side === 'BUY';
    out.time = trade.time;
    out.stands = !NOT_STANDING.has(trade.state);
  }

  private unknownSymbol(lineNo: number, symbol: string) {
    return backtestError(
      BacktestErrorCode.UNKNOWN_SYMBOL,
      `${this.file}:${lineNo}: trade in ${symbol}, which has no instrument in the header`,
    );
  }
}
