/**
 * The execution adapter wired as the pipeline wires it (real OrderTracker as its ledger, JournalRecorder as
 * its write-ahead journal, FileJournal underneath) against a scripted FakeVenue, with one log of the
 * journal's write(2) / fdatasync(2) calls and the venue calls in the order they happened. Intents are built
 * with ids of run `r1`.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Decimal } from '../../../../src/domain/decimal.ts';
import { silentLogger } from '../../../../src/logging/logger.ts';
import { ExecutionAdapter } from '../../../../src/engine/execution/adapter.ts';
import { trackerLedger } from '../../../../src/engine/pipeline/ledger.ts';
import type { CancelIntent, CrossIntent, Intent, PlaceIntent, ReplaceIntent } from '../../../../src/engine/intents.ts';
import { OrderTracker } from '../../../../src/engine/orders/index.ts';
import { approve } from '../../../../src/engine/risk/verdict.ts';
import type { VenueCancelRequest, VenueCrossRequest, VenueOrderRequest, VenueReplaceRequest } from '../../../../src/engine/venue.ts';
import { FileJournal, JournalRebuilder, JournalRecorder, type JournalError, type JournalFs } from '../../../../src/engine/journal/index.ts';
import { FakeVenue } from '../../helpers/fake-venue.ts';
import { ACCOUNT, SYMBOL } from './entries.ts';

const clock = { now: () => 1_700_000_000_000, scheduler: undefined as never };
let seq = 0;
const base = () => ({ strategy: 'test', time: 0, intentId: `i-r1-${String(++seq).padStart(6, '0')}` });

export function place(clordId: string): PlaceIntent {
  return {
    ...base(),
    kind: 'place',
    clordId,
    symbol: SYMBOL,
    side: 'BUY',
    qty: new Decimal(5),
    price: new Decimal('0.41'),
    timeInForce: 'GOOD_TILL_CANCEL',
    postOnly: true,
    account: undefined,
    selfMatchPrevention: undefined,
    label: 'quote',
  };
}
export const cancel = (clordId: string): CancelIntent => ({ ...base(), kind: 'cancel', clordId });
export const replace = (clordId: string, newClordId: string): ReplaceIntent => ({
  ...base(),
  kind: 'replace',
  clordId,
  newClordId,
  price: new Decimal('0.42'),
  qty: undefined,
});
export const cross = (): CrossIntent => ({
  ...base(),
  kind: 'cross',
  crossId: 'x-r1-000001',
  symbol: SYMBOL,
  qty: new Decimal(2),
  price: new Decimal('0.5'),
  buy: { clordId: 'tb-r1-000090', account: ACCOUNT, side: 'BUY' },
  sell: { clordId: 'tb-r1-000091', account: 'firms/demo/accounts/alice-hedge', side: 'SELL' },
  allOrNone: true,
});

/** A FakeVenue that logs each call into the shared log. */
class LoggingVenue extends FakeVenue {
  constructor(private readonly log: string[]) {
    super();
  }
  override insertOrders(requests: readonly VenueOrderRequest[]) {
    this.log.push(`insertOrders ${requests.map((r) => r.clordId).join(',')}`);
    return super.insertOrders(requests);
  }
  override cancelOrders(requests: readonly VenueCancelRequest[]) {
    this.log.push(`cancelOrders ${requests.map((r) => r.clordId).join(',')}`);
    return super.cancelOrders(requests);
  }
  override replaceOrders(requests: readonly VenueReplaceRequest[]) {
    this.log.push(`replaceOrders ${requests.map((r) => r.clordId).join(',')}`);
    return super.replaceOrders(requests);
  }
  override cross(request: VenueCrossRequest) {
    this.log.push(`cross ${request.crossId}`);
    return super.cross(request);
  }
}

/** What a write(2) carried, as entry types (`request:insert` for requests). */
function describeWrite(buffer: Uint8Array, offset: number, length: number): string {
  const text = Buffer.from(buffer.subarray(offset, offset + length)).toString('utf8');
  const kinds = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; kind?: string })
    .map((e) => (e.type === 'request' ? `request:${String(e.kind)}` : e.type));
  return `write ${kinds.join(' ')}`;
}

export function setup(options: { failSyncAfter?: number } = {}) {
  const log: string[] = [];
  let syncs = 0;
  const io: JournalFs = {
    ...fs,
    writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number) => {
      log.push(describeWrite(buffer, offset, length));
      return fs.writeSync(fd, buffer, offset, length);
    },
    fdatasyncSync: (fd: number) => {
      syncs += 1;
      if (options.failSyncAfter !== undefined && syncs > options.failSyncAfter)
        throw Object.assign(new Error('input/output error'), { code: 'EIO' });
      log.push('fdatasync');
      fs.fdatasyncSync(fd);
    },
  };
  const file = path.join(fs.mkdtempSync(path.join(tmpdir(), 'tradebot-wal-')), 'journal.jsonl');
  const journal = FileJournal.open(file, { fs: io });
  const tracker = new OrderTracker({ clock });
  const failures: JournalError[] = [];
  const recorder = new JournalRecorder({
    journal,
    clock,
    runId: 'r1',
    recovered: new JournalRebuilder().result(),
    orderOf: (clordId) => tracker.get(clordId),
    onFailure: (error) => void failures.push(error),
  });
  tracker.updates$.subscribe((update) => recorder.onUpdate(update));
  const venue = new LoggingVenue(log);
  const adapter = new ExecutionAdapter({
    venue,
    log: silentLogger(),
    defaultAccount: ACCOUNT,
    selfMatchPrevention: undefined,
    journal: recorder,
    ledger: trackerLedger(tracker),
  });
  recorder.start();
  log.length = 0; // the runStart line and its fdatasync
  const submit = (...intents: Intent[]) => {
    for (const intent of intents) adapter.submit(approve(intent));
    adapter.flush();
  };
  return { log, journal, tracker, venue, adapter, recorder, submit, failures, file };
}

/** Lets promise continuations and queued microtasks (the recorder's deferred write) run. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
