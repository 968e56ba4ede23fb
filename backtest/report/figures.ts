/**
 * The report's header: key figures (PnL, fees, fills, orders, refusals by code, drawdown, ratios, turnover,
 * events) formatted for reading, and the run's details (strategy, data, params, config). Money figures are
 * shown exact, as report.json holds them (thousands grouped); ratios show 4 fraction digits, with the period of
 * their returns and whether they are annualised.
 */
import { Decimal } from '../../src/domain/decimal.ts';
import { periodText } from '../metrics/ratio-period.ts';
import { queueModelText } from '../results/summary.ts';
import type { BacktestReport, Figure } from './backtest-result.ts';
import { figureAt, readPath } from './read-path.ts';

export type Tone = 'positive' | 'negative' | 'neutral';

export interface KeyFigure {
  readonly label: string;
  readonly value: string;
  readonly tone: Tone;
  /** Extra lines under the value (refusals by code, events per second). */
  readonly details: readonly string[];
}

export interface RunDetail {
  readonly label: string;
  readonly value: string;
  /** Long values (a config object) are shown folded. */
  readonly folded: boolean;
}

const MISSING = '—';
/** Fraction digits that keep a money figure exact (report.json's are exact at the instruments' and fees' scales). */
export const EXACT = 30;

function groupThousands(integerPart: string): string {
  return integerPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Formats a decimal string or number: thousands grouped, at most `maxFraction` fraction digits. */
export function formatNumber(value: Figure | undefined, maxFraction = 6): string {
  if (value === null || value === undefined || value === '') return MISSING;
  let text: string;
  try {
    const d = new Decimal(value);
    if (!d.isFinite()) return String(value);
    if (d.decimalPlaces() > maxFraction) text = d.toDecimalPlaces(maxFraction).toFixed();
    else text = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? value.trim() : d.toFixed();
  } catch {
    return String(value);
  }
  const [sign, rest] = text.startsWith('-') ? ['-', text.slice(1)] : ['', text];
  const [integer = '', fraction] = rest.split('.');
  return `${sign}${groupThousands(integer)}${fraction === undefined ? '' : `.${fraction}`}`;
}

function toneOf(value: Figure | undefined): Tone {
  if (value === null || value === undefined) return 'neutral';
  const n = Number(value);
  if (!Number.isFinite(n) || n === 0) return 'neutral';
  return n > 0 ? 'positive' : 'negative';
}

const figure = (label: string, value: string, tone: Tone = 'neutral', details: readonly string[] = []): KeyFigure => ({
  label,
  value,
  tone,
  details,
});

/** Refusal counts, largest first, as `CODE: n` lines. */
export function refusalLines(refusals: Readonly<Record<string, number>>): string[] {
  return Object.entries(refusals)
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([code, n]) => `${code}: ${formatNumber(n)}`);
}

function refusalCounts(report: BacktestReport): Record<string, number> {
  const value = readPath(report, 'refusals');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
    ),
  );
}

/** `431,035 events/s`, with 2 decimals below 10 (a slow tape: `0.2 events/s`). */
function eventRate(rate: Figure): string[] {
  if (rate === null) return [];
  return [`${formatNumber(rate, Math.abs(Number(rate)) < 10 ? 2 : 0)} events/s`];
}

/** Under sharpe and sortino: the period of the returns, whether annualised, and why the ratio is null when it is. */
function ratioDetails(report: BacktestReport, ratio: 'sharpe' | 'sortino'): string[] {
  const periodMs = readPath(report, 'returns.periodMs');
  if (typeof periodMs !== 'number') return [];
  const annualised = readPath(report, 'returns.annualised') === true ? 'annualised' : 'not annualised';
  const lines = [`per ${periodText(periodMs)}, ${annualised}`, `${String(readPath(report, 'returns.count'))} returns`];
  const why = readPath(report, `returns.whyNull.${ratio}`);
  return typeof why === 'string' ? [...lines, why] : lines;
}

/** The fill model and how often the book changed (report.json `realism`), when the report has them. */
function fillModelFigure(report: BacktestReport): KeyFigure[] {
  const trade = readPath(report, 'realism.fillModel.tradeThrough');
  if (typeof trade !== 'string') return [];
  const every = figureAt(report, 'realism.secondsBetweenBookUpdates');
  return [
    figure('Fill model', trade, 'neutral', [
      trade === 'print'
        ? 'trade-through capped by the print'
        : trade === 'full'
          ? 'trade-through in full (optimistic)'
          : `trade-through ${trade}`,
      `queue ahead: ${queueModelText(readPath(report, 'realism.fillModel.queueAheadModel'))}`,
      `${String(readPath(report, 'realism.book'))} book: ${formatNumber(figureAt(report, 'realism.bookUpdates'))} updates`,
      every === null ? 'no book updates' : `one every ${formatNumber(every, 2)} s of market time`,
    ]),
  ];
}

export function keyFigures(report: BacktestReport): KeyFigure[] {
  const at = (path: string) => figureAt(report, path);
  const counts = refusalCounts(report);
  const refusals = refusalLines(counts);
  const refusalTotal = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const drawdownTone: Tone = toneOf(at('maxDrawdown')) === 'neutral' ? 'neutral' : 'negative';
  return [
    figure('PnL total', formatNumber(at('pnl.total'), EXACT), toneOf(at('pnl.total'))),
    figure('Realized', formatNumber(at('pnl.realized'), EXACT), toneOf(at('pnl.realized'))),
    figure('Unrealized', formatNumber(at('pnl.unrealized'), EXACT), toneOf(at('pnl.unrealized'))),
    figure('Fees', formatNumber(at('fees'), EXACT)),
    figure('Max drawdown', formatNumber(at('maxDrawdown'), EXACT), drawdownTone),
    figure('Sharpe', formatNumber(at('sharpe'), 4), toneOf(at('sharpe')), ratioDetails(report, 'sharpe')),
    figure('Sortino', formatNumber(at('sortino'), 4), toneOf(at('sortino')), ratioDetails(report, 'sortino')),
    figure('Turnover', formatNumber(at('turnover'), EXACT)),
    figure('Fills', formatNumber(at('fills'))),
    figure('Orders', formatNumber(at('orders'))),
    figure('Refusals', formatNumber(refusalTotal), refusalTotal > 0 ? 'negative' : 'neutral', refusals.length > 0 ? refusals : ['none']),
    figure('Events', formatNumber(at('events')), 'neutral', eventRate(at('eventsPerSecond'))),
    ...fillModelFigure(report),
  ];
}

/** A value for display: strings as they are, anything else as indented JSON. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return MISSING;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** Strategy name: a string, or the `name` of a strategy object. */
export function strategyName(report: BacktestReport): string {
  const s = report['strategy'];
  if (typeof s === 'string') return s;
  const name = readPath(s, 'name');
  return typeof name === 'string' ? name : 'backtest';
}

/** An object as `key = value` lines (strings bare, anything else as JSON); other values as they are. */
function keyValueLines(value: unknown, empty: string): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return describeValue(value);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return empty;
  return entries.map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n');
}

export function runDetails(report: BacktestReport): RunDetail[] {
  const strategy = report['strategy'];
  const config = describeValue(report['config']);
  return [
    { label: 'Strategy', value: describeValue(strategy), folded: typeof strategy === 'object' && strategy !== null },
    { label: 'Data', value: keyValueLines(report['data'], '—'), folded: false },
    { label: 'Params', value: keyValueLines(report['params'], '(defaults)'), folded: false },
    { label: 'Config', value: config, folded: config.includes('\n') },
  ];
}
