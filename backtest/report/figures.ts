/**
 * The report's header: key figures (PnL, fees, fills, orders, refusals by code, drawdown, ratios, turnover,
 * events) formatted for reading, and the run's details (strategy, data, params, config). Decimal strings
 * stay exact up to 6 fraction digits (report.json keeps every digit); ratios show 3.
 */
import { Decimal } from 'decimal.js';
import type { BacktestReport, Figure } from './backtest-result.ts';

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

const figure = (label: string, value: string, tone: Tone = 'neutral', details: readonly string[] = []): KeyFigure => ({ label, value, tone, details });

/** Refusal counts, largest first, as `CODE: n` lines. */
export function refusalLines(refusals: Readonly<Record<string, number>> | undefined): string[] {
  return Object.entries(refusals ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([code, n]) => `${code}: ${formatNumber(n)}`);
}

export function keyFigures(report: BacktestReport): KeyFigure[] {
  const refusals = refusalLines(report.refusals);
  const refusalTotal = Object.values(report.refusals ?? {}).reduce((sum, n) => sum + (Number.isFinite(n) ? n : 0), 0);
  return [
    figure('PnL total', formatNumber(report.pnl?.total), toneOf(report.pnl?.total)),
    figure('Realized', formatNumber(report.pnl?.realized), toneOf(report.pnl?.realized)),
    figure('Unrealized', formatNumber(report.pnl?.unrealized), toneOf(report.pnl?.unrealized)),
    figure('Fees', formatNumber(report.fees)),
    figure('Max drawdown', formatNumber(report.maxDrawdown), toneOf(report.maxDrawdown) === 'neutral' ? 'neutral' : 'negative'),
    figure('Sharpe', formatNumber(report.sharpe, 3), toneOf(report.sharpe)),
    figure('Sortino', formatNumber(report.sortino, 3), toneOf(report.sortino)),
    figure('Turnover', formatNumber(report.turnover)),
    figure('Fills', formatNumber(report.fills)),
    figure('Orders', formatNumber(report.orders)),
    figure('Refusals', formatNumber(refusalTotal), refusalTotal > 0 ? 'negative' : 'neutral', refusals.length > 0 ? refusals : ['none']),
    figure('Events', formatNumber(report.events), 'neutral', [`${formatNumber(report.eventsPerSecond, 0)} events/s`]),
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
  const s = report.strategy;
  if (typeof s === 'string') return s;
  if (typeof s === 'object' && s !== null && typeof (s as { name?: unknown }).name === 'string') return (s as { name: string }).name;
  return 'backtest';
}

function paramsText(params: unknown): string {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return describeValue(params);
  const entries = Object.entries(params as Record<string, unknown>);
  if (entries.length === 0) return '(defaults)';
  return entries.map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n');
}

export function runDetails(report: BacktestReport): RunDetail[] {
  const config = describeValue(report.config);
  return [
    { label: 'Strategy', value: describeValue(report.strategy), folded: typeof report.strategy === 'object' && report.strategy !== null },
    { label: 'Data', value: describeValue(report.data), folded: false },
    { label: 'Params', value: paramsText(report.params), folded: false },
    { label: 'Config', value: config, folded: config.includes('\n') },
  ];
}
