/**
 * fills.csv and orders.csv of a backtest, written while it replays (so memory does not grow with the fills):
 * one row per fill as the order tracker emits it, and one row per order when it ends (orders still open at the
 * end are written by `close`). Rows go through the project's RFC 4180 cell quoting (sweep/csv.ts, tested) and
 * reach the disk in 64 KiB chunks. Times are ISO 8601 UTC, decimals exact strings, so pandas, polars or a
 * spreadsheet read them as they are.
 *
 *   fills.csv   time,symbol,side,price,qty,fee,liquidity,order_id,clord_id,label,account,fill_id
 *   orders.csv  time,symbol,side,price,qty,filled,filled_notional,fee,liquidity,state,order_id,clord_id,label,account,cross_id,updated
 *
 * A fill's fee is the one the portfolio books (the venue's reported commission, else the configured rates);
 * `liquidity` is maker or taker (an order's: maker, taker or both, empty without fills). An order's price and
 * quantity are its last (after replaces), its clord_id the first it was sent with; filled_notional is the sum of
 * its fills' qty x price (exact; the average price is filled_notional / filled).
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Subscription } from 'rxjs';
import { ZERO, type Decimal } from '../../src/domain/decimal.ts';
import { formatTimestamp } from '../../src/domain/time.ts';
import { isTerminal, type Fill, type OrderTracker, type TrackedOrder } from '../../src/engine/orders/index.ts';
import { commission, type FeeRates } from '../../src/engine/portfolio/index.ts';
import { csvCell } from '../sweep/csv.ts';

export const FILLS_CSV = 'fills.csv';
export const ORDERS_CSV = 'orders.csv';
const FILL_COLUMNS = ['time', 'symbol', 'side', 'price', 'qty', 'fee', 'liquidity', 'order_id', 'clord_id', 'label', 'account', 'fill_id'];
const ORDER_COLUMNS = [
  'time',
  'symbol',
  'side',
  'price',
  'qty',
  'filled',
  'filled_notional',
  'fee',
  'liquidity',
  'state',
  'order_id',
  'clord_id',
  'label',
  'account',
  'cross_id',
  'updated',
];
const CHUNK = 64 * 1024;

/** A CSV file written in chunks: rows are buffered up to CHUNK characters, then written synchronously. */
class CsvFile {
  private readonly fd: number;
  private buffer = '';
  rows = 0;

  constructor(file: string, columns: readonly string[]) {
    this.fd = openSync(file, 'w');
    this.line(columns);
  }

  row(cells: readonly string[]): void {
    this.rows++;
    this.line(cells);
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private line(cells: readonly string[]): void {
    this.buffer += `${cells.map(csvCell).join(',')}\r\n`;
    if (this.buffer.length >= CHUNK) this.flush();
  }

  private flush(): void {
    if (this.buffer !== '') writeSync(this.fd, this.buffer);
    this.buffer = '';
  }
}

interface OrderTally {
  fee: Decimal;
  notional: Decimal;
  maker: boolean;
  taker: boolean;
}

/** The fee the portfolio books for a fill: the venue's reported commission, else the rates. */
export function bookedFee(fill: Fill, rates: FeeRates): Decimal {
  return fill.fee ?? commission(fill.qty.times(fill.price), fill.aggressor, rates);
}

/** maker, taker, or '' when the fill does not say. */
export function liquidityOfFill(fill: Fill): string {
  return fill.aggressor === false ? 'maker' : fill.aggressor === true ? 'taker' : '';
}

const liquidityOf = (t: OrderTally | undefined): string =>
  t === undefined ? '' : t.maker && t.taker ? 'both' : t.maker ? 'maker' : t.taker ? 'taker' : '';

export class TradeTables {
  private readonly fills: CsvFile;
  private readonly orders: CsvFile;
  /** Fees and liquidity of the orders still open, by their first clordId. */
  private readonly tallies = new Map<string, OrderTally>();
  private readonly subscriptions: Subscription[] = [];

  constructor(
    dir: string,
    private readonly tracker: OrderTracker,
    private readonly rates: FeeRates,
  ) {
    mkdirSync(dir, { recursive: true });
    this.fills = new CsvFile(path.join(dir, FILLS_CSV), FILL_COLUMNS);
    this.orders = new CsvFile(path.join(dir, ORDERS_CSV), ORDER_COLUMNS);
    this.subscriptions.push(
      tracker.fills$.subscribe((fill) => this.fill(fill)),
      tracker.updates$.subscribe((update) => {
        if (isTerminal(update.order.state) && (update.previousState === undefined || !isTerminal(update.previousState)))
          this.order(update.order);
      }),
    );
  }

  /** Writes the orders still open, stops listening and closes both files; returns the row counts. */
  close(): { fills: number; orders: number } {
    for (const s of this.subscriptions) s.unsubscribe();
    for (const order of this.tracker.open()) this.order(order);
    this.fills.close();
    this.orders.close();
    return { fills: this.fills.rows, orders: this.orders.rows };
  }

  private fill(fill: Fill): void {
    const fee = bookedFee(fill, this.rates);
    const order = this.tracker.get(fill.clordId);
    const key = order?.clordIds[0] ?? fill.clordId;
    const tally = this.tallies.get(key) ?? { fee: ZERO, notional: ZERO, maker: false, taker: false };
    tally.fee = tally.fee.plus(fee);
    tally.notional = tally.notional.plus(fill.qty.times(fill.price));
    if (fill.aggressor === false) tally.maker = true;
    else tally.taker = true;
    this.tallies.set(key, tally);
    this.fills.row([
      formatTimestamp(fill.time),
      fill.symbol,
      fill.side,
      fill.price.toString(),
      fill.qty.toString(),
      fee.toString(),
      liquidityOfFill(fill),
      fill.orderId ?? '',
      fill.clordId,
      order?.label ?? '',
      fill.account,
      fill.fillId,
    ]);
  }

  private order(order: TrackedOrder): void {
    const key = order.clordIds[0] ?? order.clordId;
    const tally = this.tallies.get(key);
    this.tallies.delete(key);
    this.orders.row([
      formatTimestamp(order.createdAt),
      order.symbol,
      order.side,
      order.price?.toString() ?? '',
      order.qty.toString(),
      order.filledQty.toString(),
      (tally?.notional ?? ZERO).toString(),
      (tally?.fee ?? ZERO).toString(),
      liquidityOf(tally),
      order.state,
      order.orderId ?? '',
      key,
      order.label ?? '',
      order.account,
      order.crossId ?? '',
      formatTimestamp(order.updatedAt),
    ]);
  }
}
