/**
 * The one-screen summary `tradebot backtest` prints at the end: PnL, fills, orders, refusals, drawdown,
 * sharpe and sortino, what was replayed, and both rates side by side, each named with the file it is in:
 * events per wall-clock second (how fast this machine ran it: run.json `eventsPerSecondWall`) and events
 * per second of market time (how busy the data is: report.json `eventsPerSecond`, deterministic).
 */
import { periodText } from '../metrics/ratio-period.ts';
import type { WallStats } from '../run-backtest.ts';

const text = (value: unknown): string =>
  value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);

function get(report: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = report;
  for (const key of path.split('.'))
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** `per 1 min, not annualised (45 returns, 15 losing)`, and why a ratio is null when one is. */
function ratioBasis(report: Readonly<Record<string, unknown>>): string {
  const periodMs = get(report, 'returns.periodMs');
  const per = typeof periodMs === 'number' ? periodText(periodMs) : text(get(report, 'returns.intervalMs'));
  const annualised = get(report, 'returns.annualised') === true ? 'annualised (sqrt 365)' : 'not annualised';
  const why = (get(report, 'returns.whyNull') ?? {}) as Record<string, string>;
  const reasons = Object.entries(why).map(([ratio, reason]) => `; ${ratio} null: ${reason}`);
  const count = `${text(get(report, 'returns.count'))} returns, ${text(get(report, 'returns.losing'))} losing`;
  return `per ${per}, ${annualised} (${count}${reasons.join('')})`;
}

/** One line per settlement (`FED-CUT-2026-12 at 1 on 2026-11-30T14:25:00.000Z (exchange)`), and per expiry without one. */
function settlementLines(report: Readonly<Record<string, unknown>>): string[] {
  const list = (path: string) => {
    const value = get(report, path);
    return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  };
  const settled = list('settlements').map(
    (s) => `  settled    ${text(s['symbol'])} at ${text(s['price'])} on ${text(s['time'])} (price from ${text(s['source'])})`,
  );
  const open = list('unsettled').map(
    (u) =>
      `  UNSETTLED  ${text(u['symbol'])} expired ${text(u['expired'])} with no settlement price: ` +
      `position ${text(u['position'])} left open, marked at ${text(u['markedAt'])} (last price); ${text(u['reason'])}`,
  );
  return [...settled, ...open];
}

/** `volume over 30000 ms`, `level x 0.5`, `none`. */
export function queueModelText(model: unknown): string {
  if (typeof model !== 'object' || model === null) return '—';
  const m = model as Record<string, unknown>;
  if (m['model'] === 'volume') return `volume over ${text(m['windowMs'])} ms`;
  if (m['model'] === 'level') return `level x ${text(m['fraction'])}`;
  return text(m['model']);
}

/** The fill model and the book's update rate: how much of live the replay exercised. */
function realismLines(report: Readonly<Record<string, unknown>>): string[] {
  const r = (path: string) => text(get(report, path));
  const queueText = queueModelText(get(report, 'realism.fillModel.queueAheadModel'));
  const trade = get(report, 'realism.fillModel.tradeThrough');
  const tradeText =
    trade === 'print' ? 'print (fills never exceed the volume the tape traded)' : trade === 'full' ? 'full (optimistic)' : text(trade);
  return [
    `  fill model tradeThrough ${tradeText}, queue ahead ${queueText}`,
    `  book       ${r('realism.book')}: ${r('realism.bookUpdates')} updates, ` +
      `one every ${r('realism.secondsBetweenBookUpdates')} s of market time (${r('realism.bookSource')})`,
  ];
}

export function formatSummary(report: Readonly<Record<string, unknown>>, wall: WallStats): string {
  const r = (path: string) => text(get(report, path));
  const refusals = (get(report, 'refusals') ?? {}) as Record<string, number>;
  const refusalText =
    Object.keys(refusals).length === 0
      ? 'none'
      : Object.entries(refusals)
          .map(([code, n]) => `${code} ${n}`)
          .join(', ');
  const lines = [
    `backtest  ${r('strategy')} on ${r('data.file')} (${r('data.symbols')}) ${r('data.from')} .. ${r('data.to')}`,
    `  PnL        total ${r('pnl.total')}   realized ${r('pnl.realized')}   unrealized ${r('pnl.unrealized')}   fees ${r('fees')}`,
    `  equity     ${r('equity.start')} -> ${r('equity.end')}   max drawdown ${r('maxDrawdown')} (${r('maxDrawdownFraction')})`,
    `  ratios     sharpe ${r('sharpe')}   sortino ${r('sortino')}   ${ratioBasis(report)}`,
    `  trading    fills ${r('fills')}   orders ${r('orders')}   turnover ${r('turnover')}   positions ${r('positions')}`,
    `  refusals   ${refusalText}`,
    ...settlementLines(report),
    ...realismLines(report),
    get(report, 'data.kind') === 'recording'
      ? `  replay     ${r('events')} recorded book updates (${r('data.orderEvents')} order events of the live bot, ` +
        `${r('data.skippedEvents')} lines skipped) over ${r('marketSeconds')} s of market time`
      : `  replay     ${r('events')} trades (${r('data.busted')} busted, ${r('data.duplicates')} duplicates), ` +
        `${r('bookEvents')} book events, over ${r('marketSeconds')} s of market time`,
    `  rate       ${wall.eventsPerSecondWall} events/s wall-clock (run.json eventsPerSecondWall: this machine's speed)`,
    `             ${r('eventsPerSecond')} events/s of market time (report.json eventsPerSecond: how busy the data is; deterministic)`,
    `  run        ${wall.wallSeconds.toFixed(2)} s wall-clock, peak RSS ${wall.peakRssMB} MB`,
  ];
  return `${lines.join('\n')}\n`;
}
