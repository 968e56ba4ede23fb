/**
 * `<out>.state.json`: where an interrupted `history fetch` stands, rewritten atomically (temp file +
 * rename) after every page is on disk: the request it belongs to, the next page token, the counts, and
 * the byte length of the history file at that point (a restart truncates anything written after it, so a
 * page half-written when the fetch died is fetched again, never duplicated).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
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
    throw error;
  }
  const state = JSON.parse(text) as FetchState;
  if ((state.version !== 1 && state.version !== 2) || typeof state.nextPageToken !== 'string' || typeof state.bytes !== 'number') {
    throw backtestError(BacktestErrorCode.HISTORY_STATE_MISMATCH, `${file} is not a history fetch state file; delete it to start over`);
  }
  return state;
}

export async function writeFetchState(file: string, state: FetchState): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`, 'utf8');
  await rename(tmp, file);
}

export function sameRequest(a: FetchRequestKey, b: FetchRequestKey): boolean {
  return a.source === b.source && (a.format ?? 'full') === (b.format ?? 'full') && a.from === b.from && a.to === b.to && a.pageSize === b.pageSize && a.symbols.length === b.symbols.length && a.symbols.every((s, i) => s === b.symbols[i]);
}
