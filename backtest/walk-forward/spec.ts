/**
 * The `--walk-forward <train>/<test>[/<step>]` spec and the windows it makes of a tape. Each part is a
 * duration (`6h`, `90m`, `1h30m`, `45s`, `2d`, `500ms`) or a fraction of the tape's span (`0.5`, `25%`);
 * the step (how far each window moves on) defaults to the test length, so the out-of-sample windows follow
 * each other without gap or overlap. Window k trains on [from + k·step, + train) and tests on the `test`
 * that follows; windows whose test would end after the tape are left out. Times are whole milliseconds;
 * a fraction is exact (Decimal) and rounded down to the millisecond.
 */
import { Decimal } from '../../src/domain/decimal.ts';
import { TradebotError } from '../../src/errors.ts';
import type { TapeWindow } from '../sweep/types.ts';

export type Length = { readonly kind: 'ms'; readonly ms: number } | { readonly kind: 'fraction'; readonly value: Decimal };

export interface WalkForwardSpec {
  /** As given, e.g. `15m/10m`. */
  readonly text: string;
  readonly train: Length;
  readonly test: Length;
  readonly step?: Length;
}

export interface WalkForwardWindow {
  /** 1-based. */
  readonly index: number;
  readonly train: TapeWindow;
  readonly test: TapeWindow;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

function invalid(text: string, why: string): TradebotError {
  return new TradebotError(
    'WALK_FORWARD_INVALID',
    `--walk-forward ${text}: ${why} (expected <train>/<test>[/<step>], ` +
      'each a duration such as 6h, 90m, 1h30m or a fraction of the tape such as 0.5 or 25%)',
    { kind: 'config' },
  );
}

function parseLength(part: string, text: string, name: string): Length {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(part);
  const fraction = percent === null ? /^(0?\.\d+|0|1(?:\.0+)?)$/.exec(part) : null;
  if (percent !== null || fraction !== null) {
    const value = percent !== null ? new Decimal(percent[1] as string).div(100) : new Decimal(part);
    if (value.lte(0) || value.gt(1)) throw invalid(text, `the ${name} ${part} is not a fraction of the tape above 0 and at most 1`);
    return { kind: 'fraction', value };
  }
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(part)) throw invalid(text, `the ${name} "${part}" is neither a duration nor a fraction`);
  let ms = new Decimal(0);
  for (const m of part.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g))
    ms = ms.plus(new Decimal(m[1] as string).times(UNIT_MS[m[2] as string] as number));
  if (!ms.isInteger() || ms.lte(0)) throw invalid(text, `the ${name} ${part} is not a whole, positive number of milliseconds`);
  return { kind: 'ms', ms: ms.toNumber() };
}

export function parseWalkForward(text: string): WalkForwardSpec {
  const parts = text.trim().split('/');
  if (parts.length < 2 || parts.length > 3) throw invalid(text, `${parts.length} part${parts.length === 1 ? '' : 's'}`);
  const [train, test, step] = parts.map((p) => p.trim()) as [string, string, string | undefined];
  return {
    text,
    train: parseLength(train, text, 'train length'),
    test: parseLength(test, text, 'test length'),
    ...(step === undefined ? {} : { step: parseLength(step, text, 'step') }),
  };
}

function msOf(length: Length, span: number): number {
  return length.kind === 'ms' ? length.ms : new Decimal(span).times(length.value).floor().toNumber();
}

/** `1h30m`, `45m`, `2.5s` */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(`${rest / 1000}s`);
  return parts.join('');
}

/** The windows of a tape spanning [from, to). */
export function walkForwardWindows(spec: WalkForwardSpec, from: number, to: number): WalkForwardWindow[] {
  const span = to - from;
  const train = msOf(spec.train, span);
  const test = msOf(spec.test, span);
  const step = spec.step === undefined ? test : msOf(spec.step, span);
  for (const [name, ms] of [
    ['train length', train],
    ['test length', test],
    ['step', step],
  ] as const) {
    if (ms <= 0) throw invalid(spec.text, `the ${name} is less than a millisecond of this tape`);
  }
  const windows: WalkForwardWindow[] = [];
  for (let start = from; start + train + test <= to; start += step) {
    windows.push({
      index: windows.length + 1,
      train: { from: start, to: start + train },
      test: { from: start + train, to: start + train + test },
    });
  }
  if (windows.length === 0) {
    throw new TradebotError(
      'WALK_FORWARD_NO_WINDOW',
      `--walk-forward ${spec.text}: the tape spans ${formatDuration(span)} ` +
        `(${new Date(from).toISOString()} .. ${new Date(to).toISOString()}), ` +
        `less than one window of ${formatDuration(train)} training and ${formatDuration(test)} testing: shorten them or give a longer tape`,
      { kind: 'config' },
    );
  }
  return windows;
}
