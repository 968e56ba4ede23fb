/**
 * Pulls the exchange's trade search into a history file, page by page: the header first, then each page's
 * trades (busted ones kept) appended and flushed to disk, then the state file rewritten. The lines are in
 * the history `format` asked for (format.ts; default compact: what replay needs, converted from the decoded
 * trade at its instrument's scales; full: the exchange's whole record). Resumable: with a
 * state file for the same request it truncates the file to the last complete page and continues from the
 * saved page token; a finished fetch is not repeated; `force` starts over whatever the state file says. A
 * state file that never got a page (the first call failed) gives way to a new request. Rate-limited: the clients' token buckets keep calls
 * under the venue's limit, and `pauseMs` passes between pages. An AbortSignal stops it between pages
 * (BACKTEST_HISTORY_ABORTED), leaving a state file to resume from.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatTimestamp } from '../../src/domain/time.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { compactTradeOf, encodeCompactTradeLine } from './compact-trade.ts';
import { encodeHeader, encodeTradeLine, type HistoryFormat } from './format.ts';
import { readFetchState, sameRequest, stateFileOf, writeFetchState, type FetchRequestKey, type FetchState } from './fetch-state.ts';
import type { SourcedTrade, TradePageSource } from './trade-source.ts';

export interface FetchHistoryOptions {
  readonly source: TradePageSource;
  readonly symbols: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly out: string;
  /** The history format written (default compact). */
  readonly format?: HistoryFormat;
  /** Trades per page (default 500; the exchange caps it). */
  readonly pageSize?: number;
  /** Pause between pages, ms (default 100). */
  readonly pauseMs?: number;
  /** Start over: overwrite the file, ignoring any state file (another request's, a finished or a damaged one). */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  readonly onPage?: (state: FetchState, lastTradeTime: number | undefined) => void;
}

export interface FetchHistoryResult {
  readonly state: FetchState;
  readonly resumed: boolean;
}

/** The file's length in bytes, or undefined when there is no such file. */
async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

/** The request this fetch makes, and the state file's state when it is this request's (undefined: start afresh). */
async function fetchPlan(options: FetchHistoryOptions) {
  const { source } = options;
  const stateFile = stateFileOf(options.out);
  // --force starts over: whatever state file there is (another request's, a finished one, a damaged one) is not read
  let state = options.force === true ? undefined : await readFetchState(stateFile);
  // no --format given: an interrupted fetch resumes in the format it was started in (before formats: full)
  const format = options.format ?? (state !== undefined ? (state.request.format ?? 'full') : 'compact');
  const request: FetchRequestKey = {
    source: source.source,
    symbols: [...options.symbols],
    from: formatTimestamp(options.from),
    to: formatTimestamp(options.to),
    pageSize: options.pageSize ?? 500,
    format,
  };
  // a fetch that failed before its first page (e.g. a page size the exchange refused) has nothing to keep
  let overwrite = options.force === true;
  if (state !== undefined && !sameRequest(state.request, request)) {
    if (state.pages > 0) {
      throw backtestError(
        BacktestErrorCode.HISTORY_STATE_MISMATCH,
        `${stateFile} belongs to another fetch (${JSON.stringify({ ...state.request, format: state.request.format ?? 'full' })}, ` +
          `this one: ${JSON.stringify(request)}); use --force to start over or give another --out`,
        { kind: 'config' },
      );
    }
    state = undefined;
    overwrite = true;
  }
  return { stateFile, state, format, request, overwrite };
}

/** A resumed fetch needs the file it wrote, at least as long as the state says. */
async function checkResumable(out: string, stateFile: string, state: FetchState): Promise<void> {
  const size = await sizeOf(out);
  if (size === undefined || size < state.bytes) {
    const what = size === undefined ? `${out} is gone` : `${out} is shorter (${size} bytes) than the ${state.bytes} bytes fetched`;
    throw backtestError(
      BacktestErrorCode.HISTORY_STATE_MISMATCH,
      `${stateFile} says ${state.pages} page(s) were fetched, but ${what}; use --force to fetch it again from the start`,
      { kind: 'config' },
    );
  }
}

/** A new file's header, written and synced, and the state file of a fetch with no page yet. */
async function startFile(
  handle: FileHandle,
  options: FetchHistoryOptions,
  plan: Awaited<ReturnType<typeof fetchPlan>>,
  instruments: Awaited<ReturnType<TradePageSource['instruments']>>,
  settlements: Awaited<ReturnType<TradePageSource['settlements']>>,
): Promise<FetchState> {
  const { request, format, stateFile } = plan;
  const header = encodeHeader({
    kind: 'history',
    format,
    source: options.source.source,
    symbols: request.symbols,
    from: options.from,
    to: options.to,
    instruments,
    settlements,
  });
  await handle.write(header, 0);
  await handle.datasync();
  const state: FetchState = {
    version: 2,
    request,
    nextPageToken: '',
    pages: 0,
    trades: 0,
    skipped: 0,
    busted: 0,
    bytes: Buffer.byteLength(header),
    done: false,
  };
  await writeFetchState(stateFile, state);
  return state;
}

/** Fetches page after page from `state`, each appended, synced and recorded in the state file, until the last. */
async function fetchPages(
  handle: FileHandle,
  options: FetchHistoryOptions,
  plan: Awaited<ReturnType<typeof fetchPlan>>,
  from: FetchState,
): Promise<FetchState> {
  const { source } = options;
  const { request, format, stateFile } = plan;
  const encodeLine =
    format === 'compact'
      ? (t: SourcedTrade) => encodeCompactTradeLine(compactTradeOf(t.trade, t.scales))
      : (t: SourcedTrade) => encodeTradeLine(source.wire(t.trade, t.scales));
  let state = from;
  for (;;) {
    if (options.signal?.aborted === true) {
      throw backtestError(
        BacktestErrorCode.HISTORY_ABORTED,
        `history fetch stopped after ${state.pages} page(s); run the same command again to resume`,
        { kind: 'connectivity' },
      );
    }
    const page = await source.page({
      symbols: request.symbols,
      from: options.from,
      to: options.to,
      pageSize: request.pageSize,
      pageToken: state.nextPageToken,
    });
    const text = page.trades.map(encodeLine).join('');
    const bytes = Buffer.byteLength(text);
    if (bytes > 0) {
      await handle.write(text, state.bytes);
      await handle.datasync();
    }
    state = {
      ...state,
      nextPageToken: page.nextPageToken,
      pages: state.pages + 1,
      trades: state.trades + page.trades.length,
      skipped: state.skipped + page.skipped,
      busted: state.busted + page.busted,
      bytes: state.bytes + bytes,
      done: page.nextPageToken === '',
    };
    await writeFetchState(stateFile, state);
    options.onPage?.(state, page.lastTime);
    if (state.done) return state;
    const pause = options.pauseMs ?? 100;
    if (pause > 0) await sleep(pause, undefined, options.signal === undefined ? {} : { signal: options.signal }).catch(() => undefined);
  }
}

export async function fetchHistory(options: FetchHistoryOptions): Promise<FetchHistoryResult> {
  const { source, out } = options;
  const plan = await fetchPlan(options);
  const { state, request, overwrite } = plan;
  const resumed = state !== undefined;
  if (state !== undefined) await checkResumable(out, plan.stateFile, state);
  if (state?.done === true) return { state, resumed };
  // the instruments first, on a resume too: the page decoding needs their scales, and a wrong symbol leaves no file behind
  const instruments = await source.instruments(request.symbols);
  const missing = request.symbols.filter((s) => !instruments.some((i) => i.symbol === s));
  if (missing.length > 0)
    throw backtestError(BacktestErrorCode.BAD_OPTION, `the exchange has no instrument ${missing.join(', ')}`, { kind: 'config' });
  if (state === undefined && !overwrite && (await sizeOf(out)) !== undefined) {
    throw backtestError(
      BacktestErrorCode.HISTORY_EXISTS,
      `${out} exists and no fetch state says it was interrupted; use --force to overwrite it`,
      { kind: 'config' },
    );
  }
  // a new file: how the contracts expiring by the window's end settled, as the exchange shows it now (replay
  // settles from it); asked before the file is opened, so a failure leaves no file behind
  const expiring = instruments.filter((i) => i.expirationTime !== undefined && i.expirationTime <= options.to).map((i) => i.symbol);
  const settlements = state === undefined ? await source.settlements(expiring) : [];
  const handle = await (async () => {
    if (state === undefined) return open(out, 'w');
    const h = await open(out, 'r+');
    await h.truncate(state.bytes);
    return h;
  })();
  try {
    const first = state ?? (await startFile(handle, options, plan, instruments, settlements));
    return { state: await fetchPages(handle, options, plan, first), resumed };
  } finally {
    await handle.close();
  }
}
