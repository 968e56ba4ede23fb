/**
 * `<out>.state.json`: where an interrupted `history fetch` stands, rewritten atomically (temp file +
 * rename) after every page is on disk: the request it belongs to, the next page token, the counts, and
 * the byte length of the history file at that point (a restart truncates anything written after it, so a
 * page half-written when the fetch died is fetched again, never duplicated). A state file that cannot be
 * read, is not JSON or lacks a field is BACKTEST_HISTORY_STATE_MISMATCH naming it (start over with --force).
 */
import { open, readFile, rename } from 'node:fs/promises';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import type { HistoryFormat, HistorySource } from './format.ts';

export interface FetchRequestKey {
  readonly source: HistorySource;
  readonly symbols: readonly string[];
  readonly from: string;
  readonly to: string;
  readonly pageSize: number;
  /** The history format written (absent in state files of fetches from before formats: full). */
  readonly format?: HistoryFormat;
}

export interface FetchState {
  /** 2 since history formats (a version 1 state is a full-format fetch); both are read. */
  readonly version: 1 | 2;
  readonly request: FetchRequestKey;
  readonly nextPageToken: string;
  readonly pages: number;
  readonly trades: number;
  readonly skipped: number;
  readonly busted: number;
  /** Length of the history file after the last complete page. */
  readonly bytes: number;
  readonly done: boolean;
}

export const stateFileOf = (out: string): string => `${out}.state.json`;

export async function readFetchState(file: string): Promise<FetchState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw backtestError(BacktestErrorCode.DATA_UNREADABLE, `cannot read the fetch state ${file}: ${(error as Error).message}`, {
      kind: 'config',
      cause: error,
    });
  }
  const damaged = (why: string) =>
    backtestError(
      BacktestErrorCode.HISTORY_STATE_MISMATCH,
      `${file} is not a history fetch state file (${why}); run the fetch with --force to start over, or delete it`,
      { kind: 'config', details: { file } },
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw damaged(text.trim() === '' ? 'it is empty' : `not JSON: ${(error as Error).message}`);
  }
  if (!isFetchState(parsed)) throw damaged('not the fields of one');
  return parsed;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The shape of a state file (version 1 or 2) and of its request. */
function isFetchState(v: unknown): v is FetchState {
  if (!isRecord(v) || (v.version !== 1 && v.version !== 2) || typeof v.nextPageToken !== 'string' || typeof v.done !== 'boolean')
    return false;
  if (![v.pages, v.trades, v.skipped, v.busted, v.bytes].every(isCount)) return false;
  const r = v.request;
  return (
    isRecord(r) &&
    (r.source === 'gateway' || r.source === 'familyA') &&
    Array.isArray(r.symbols) &&
    r.symbols.every((x) => typeof x === 'string') &&
    typeof r.from === 'string' &&
    typeof r.to === 'string' &&
    isCount(r.pageSize) &&
    (r.format === undefined || r.format === 'compact' || r.format === 'full')
  );
}

export async function writeFetchState(file: string, state: FetchState): Promise<void> {
  const tmp = `${file}.tmp`;
  // on disk before the rename: a crash then leaves the old state or the new one, never an empty file
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
}

export function sameRequest(a: FetchRequestKey, b: FetchRequestKey): boolean {
  return (
    a.source === b.source &&
    (a.format ?? 'full') === (b.format ?? 'full') &&
    a.from === b.from &&
    a.to === b.to &&
    a.pageSize === b.pageSize &&
    a.symbols.length === b.symbols.length &&
    a.symbols.every((s, i) => s === b.symbols[i])
  );
}
