/**
 * The execution adapter against a scripted fake Venue and an in-memory ledger: places queued in one engine
 * step go out as list calls of at most 20, a cancel (or replace) of an order without an exchange id waits for
 * the acknowledgement, `cancelAllOpen` cancels every working order and resolves once the venue answered, a
 * failed insert marks every order of its batch as failed, a cancel of a place still queued drops it, and an
 * order is not cancelled twice while its cancel is in flight. Self-match prevention: a step's cancels leave
 * before its inserts, and an order approved behind self-match cancels reaches the venue only once those
 * resting orders are confirmed finished (or is dropped, unsent, when one of them is working again).
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { ExecutionAdapter, type ExecutionLedger, type ReplaceTerms } from '../../../src/engine/execution/adapter.ts';
import type { CancelAllIntent, CancelIntent, CrossIntent, PlaceIntent, ReplaceIntent } from '../../../src/engine/intents.ts';
import { approve } from '../../../src/engine/risk/verdict.ts';
import type { VenueCancelRequest, VenueCrossRequest, VenueOrderRequest, VenueReplaceRequest } from '../../../src/engine/venue.ts';
import { TradebotError, isTradebotError } from '../../../src/errors.ts';
import type { PendingReplace, ReleasedRequests, SubmissionMeta, TrackedState } from '../../../src/engine/orders/index.ts';
import { FakeVenue } from '../helpers/fake-venue.ts';

const ACCOUNT = 'firms/f/accounts/main';
const base = { strategy: 'test', time: 0 };
let seq = 0;

function place(clordId: string, overrides: Partial<PlaceIntent> = {}): PlaceIntent {
  return {
    ...base,
    intentId: `i-${++seq}`,
    kind: 'place',
    clordId,
    symbol: 'EVT',
    side: 'BUY',
    qty: new Decimal(1),
    price: new Decimal('0.5'),
    timeInForce: 'GOOD_TILL_CANCEL',
    postOnly: false,
    account: undefined,
    selfMatchPrevention: undefined,
    label: undefined,
    ...overrides,
  };
}
const cancel = (clordId: string): CancelIntent => ({ ...base, intentId: `i-${++seq}`, kind: 'cancel', clordId });
const cancelAll = (symbol?: string): CancelAllIntent => ({ ...base, intentId: `i-${++seq}`, kind: 'cancelAll', symbol });
const replace = (clordId: string, newClordId: string, price: string): ReplaceIntent => ({
  ...base,
  intentId: `i-${++seq}`,
  kind: 'replace',
  clordId,
  newClordId,
  price: new Decimal(price),
  qty: undefined,
});

interface LedgerOrder {
  symbol: string;
  orderId: string | undefined;
  state: 'pending' | 'acked' | 'cancelRequested' | 'failed' | 'canceled' | 'filled' | 'unknown';
  /** The replace in flight or waiting (its new id and terms). */
  pendingReplace?: PendingReplace | undefined;
  /** What waits for the acknowledgement (as the tracker's records keep it). */
  awaiting?: { cancel: boolean; replaceOf: string | undefined } | undefined;
  cancelInFlight?: boolean;
}

const TRACKED: Record<LedgerOrder['state'], TrackedState> = {
  pending: 'PENDING_NEW',
  acked: 'NEW',
  cancelRequested: 'PENDING_CANCEL',
  failed: 'REJECTED',
  canceled: 'CANCELED',
  filled: 'FILLED',
  unknown: 'UNKNOWN',
};

/** What the adapter tells the tracker, kept as plain state and a call log. */
class FakeLedger implements ExecutionLedger {
  readonly orders = new Map<string, LedgerOrder>();
  readonly log: string[] = [];
  readonly failures = new Map<string, unknown>();
  readonly crossOf = new Map<string, string>();

  submitted(request: VenueOrderRequest, meta: SubmissionMeta): void {
    if (meta.crossId !== undefined) this.crossOf.set(request.clordId, meta.crossId);
    this.orders.set(request.clordId, { symbol: request.symbol, orderId: undefined, state: 'pending' });
    this.log.push(`submitted ${request.clordId}`);
  }
  acknowledged(clordId: string, orderId: string): void {
    const order = this.orders.get(clordId);
    if (order) Object.assign(order, { orderId, state: order.state === 'cancelRequested' ? 'cancelRequested' : 'acked' });
    this.log.push(`acknowledged ${clordId} ${orderId}`);
  }
  sendFailed(clordId: string, error: unknown): void {
    const order = this.orders.get(clordId);
    if (order) order.state = 'failed';
    this.failures.set(clordId, error);
    this.log.push(`sendFailed ${clordId}`);
  }
  cancelRequested(clordId: string): void {
    const order = this.orders.get(clordId);
    if (order) order.state = 'cancelRequested';
    this.log.push(`cancelRequested ${clordId}`);
  }
  replaceRequested(intent: ReplaceTerms): void {
    const order = this.find(intent.clordId);
    if (order) {
      const earlier = order.pendingReplace;
      order.pendingReplace = { clordId: intent.newClordId, price: intent.price ?? earlier?.price, qty: intent.qty ?? earlier?.qty };
      this.aliases.set(intent.newClordId, intent.clordId);
    }
    this.log.push(`replaceRequested ${intent.clordId} -> ${intent.newClordId}`);
  }
  pendingReplaceOf(clordId: string): PendingReplace | undefined {
    return this.find(clordId)?.pendingReplace;
  }
  deferCancel(clordId: string): void {
    const order = this.find(clordId);
    if (order) order.awaiting = { cancel: true, replaceOf: order.awaiting?.replaceOf };
  }
  deferReplace(clordId: string, replaceOf: string): void {
    const order = this.find(clordId);
    if (order) order.awaiting = { cancel: order.awaiting?.cancel ?? false, replaceOf };
  }
  waitingReplaceOf(clordId: string): string | undefined {
    return this.find(clordId)?.awaiting?.replaceOf;
  }
  hasDeferred(): boolean {
    return [...this.orders.values()].some((o) => o.awaiting !== undefined);
  }
  takeAcknowledged(clordId: string): ReleasedRequests | undefined {
    const order = this.find(clordId);
    const awaiting = order?.awaiting;
    if (order === undefined || awaiting === undefined) return undefined;
    order.awaiting = undefined;
    return { clordId: this.idOf(order), ...awaiting };
  }
  takeReleased(): readonly ReleasedRequests[] {
    const released: ReleasedRequests[] = [];
    for (const [clordId, order] of this.orders) {
      if (order.awaiting === undefined) continue;
      if (order.orderId !== undefined) released.push(this.takeAcknowledged(clordId) as ReleasedRequests);
      else if (['failed', 'canceled', 'filled'].includes(order.state)) order.awaiting = undefined;
    }
    return released;
  }
  cancelSent(clordId: string): void {
    const order = this.find(clordId);
    if (order) order.cancelInFlight = true;
  }
  cancelAnswered(clordId: string): void {
    const order = this.find(clordId);
    if (order) order.cancelInFlight = false;
  }
  isCancelInFlight(clordId: string): boolean {
    return this.find(clordId)?.cancelInFlight === true;
  }
  /** Replace targets name their order until confirmed (as the tracker finds an order by any id it has). */
  private readonly aliases = new Map<string, string>();
  private find(clordId: string): LedgerOrder | undefined {
    return this.orders.get(clordId) ?? this.orders.get(this.aliases.get(clordId) ?? '');
  }
  private idOf(order: LedgerOrder): string {
    for (const [id, o] of this.orders) if (o === order) return id;
    return '';
  }
  orderIdOf(clordId: string): string | undefined {
    return this.orders.get(clordId)?.orderId;
  }
  symbolOf(clordId: string): string | undefined {
    return this.orders.get(clordId)?.symbol;
  }
  openClordIds(symbol?: string): readonly string[] {
    return [...this.orders.entries()]
      .filter(
        ([, o]) => o.state !== 'failed' && o.state !== 'canceled' && o.state !== 'filled' && (symbol === undefined || o.symbol === symbol),
      )
      .map(([id]) => id);
  }
  stateOf(clordId: string): TrackedState | undefined {
    const order = this.orders.get(clordId);
    return order === undefined ? undefined : TRACKED[order.state];
  }
  requestFailed(clordId: string, request: 'cancel' | 'replace', error: unknown): void {
    const order = this.find(clordId);
    if (order?.state === 'cancelRequested' && request === 'cancel') order.state = 'acked';
    if (order !== undefined && request === 'replace') order.pendingReplace = undefined;
    this.failures.set(clordId, error);
    this.log.push(`requestFailed ${clordId} ${request}`);
  }
  /** The exchange's word on an order's state (what the order stream would tell the tracker). */
  set(clordId: string, state: LedgerOrder['state']): void {
    const order = this.orders.get(clordId);
    if (order) order.state = state;
  }
  /** An order already working at the exchange (acknowledged before the test starts). */
  working(clordId: string, orderId: string, symbol = 'EVT'): void {
    this.orders.set(clordId, { symbol, orderId, state: 'acked' });
  }
}

function setup() {
  const venue = new FakeVenue();
  const ledger = new FakeLedger();
  const sent: string[] = [];
  const adapter = new ExecutionAdapter({
    venue,
    ledger,
    log: silentLogger(),
    defaultAccount: ACCOUNT,
    selfMatchPrevention: undefined,
    onSent: (kind, count) => sent.push(`${kind} ${count}`),
  });
  return { venue, ledger, adapter, sent };
}

/** Lets the adapter's promise continuations run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('execution adapter', () => {
  it('sends 25 places of one engine step as two insert list calls of 20 and 5, in submission order', async () => {
    const { venue, ledger, adapter, sent } = setup();
    const ids = Array.from({ length: 25 }, (_, i) => `c${i + 1}`);
    for (const id of ids) adapter.submit(approve(place(id)));
    expect(venue.calls).toHaveLength(0);
    adapter.flush();
    const inserts = venue.callsOf<VenueOrderRequest>('insert');
    expect(inserts.map((c) => c.requests.length)).toEqual([20, 5]);
    expect(inserts.flatMap((c) => c.requests.map((r) => r.clordId))).toEqual(ids);
    expect(inserts[0]?.requests[0]).toMatchObject({
      account: ACCOUNT,
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GOOD_TILL_CANCEL',
      postOnly: false,
    });
    inserts[0]?.resolve(ids.slice(0, 20).map((id) => `O-${id}`));
    inserts[1]?.resolve(ids.slice(20).map((id) => `O-${id}`));
    await adapter.idle();
    expect(ledger.orderIdOf('c25')).toBe('O-c25');
    expect(sent).toEqual(['insert 20', 'insert 5']);
  });

  it('maps a place without a price to a market-to-limit request on the intent account', () => {
    const { venue, adapter } = setup();
    adapter.submit(
      approve(place('m1', { price: undefined, side: 'SELL', account: 'firms/f/accounts/hedge', timeInForce: 'IMMEDIATE_OR_CANCEL' })),
    );
    adapter.flush();
    expect(venue.callsOf<VenueOrderRequest>('insert')[0]?.requests[0]).toMatchObject({
      account: 'firms/f/accounts/hedge',
      side: 'SELL',
      type: 'MARKET_TO_LIMIT',
      timeInForce: 'IMMEDIATE_OR_CANCEL',
      price: undefined,
    });
  });

  it('holds a cancel of an order without an exchange id until the insert is acknowledged, then sends it with the id', async () => {
    const { venue, ledger, adapter, sent } = setup();
    adapter.submit(approve(place('c1')));
    adapter.flush();
    adapter.submit(approve(cancel('c1')));
    adapter.flush();
    expect(venue.callsOf('cancel')).toHaveLength(0);
    expect(ledger.log).toContain('cancelRequested c1');
    venue.callsOf('insert')[0]?.resolve(['O1']);
    await settle();
    const cancels = venue.callsOf<VenueCancelRequest>('cancel');
    expect(cancels.map((c) => c.requests)).toEqual([[{ orderId: 'O1', clordId: 'c1', symbol: 'EVT' }]]);
    cancels[0]?.resolve();
    await adapter.idle();
    expect(sent).toEqual(['insert 1', 'cancel 1']);
  });

  it('holds a replace of an unacknowledged order until the acknowledgement', async () => {
    const { venue, ledger, adapter } = setup();
    adapter.submit(approve(place('c1')));
    adapter.flush();
    adapter.submit(approve(replace('c1', 'c2', '0.55')));
    expect(venue.callsOf('replace')).toHaveLength(0);
    expect(ledger.log).toContain('replaceRequested c1 -> c2');
    venue.callsOf('insert')[0]?.resolve(['O1']);
    await settle();
    const replaces = venue.callsOf<VenueReplaceRequest>('replace');
    expect(replaces).toHaveLength(1);
    expect(replaces[0]?.requests[0]).toMatchObject({ orderId: 'O1', symbol: 'EVT', clordId: 'c2', qty: undefined });
    expect(replaces[0]?.requests[0]?.price?.toString()).toBe('0.55');
  });

  it('releases a waiting cancel when the acknowledgement comes from the order stream instead of the insert answer', () => {
    const { venue, ledger, adapter } = setup();
    adapter.submit(approve(place('c1')));
    adapter.flush();
    adapter.submit(approve(cancel('c1')));
    adapter.flush();
    ledger.acknowledged('c1', 'O1');
    adapter.onAcknowledged('c1');
    expect(venue.callsOf<VenueCancelRequest>('cancel').map((c) => c.requests[0]?.orderId)).toEqual(['O1']);
  });

  it('forgets a cancel that waited for an acknowledgement when the order is rejected instead', async () => {
    const { venue, ledger, adapter } = setup();
    adapter.submit(approve(place('c1')));
    adapter.flush();
    adapter.submit(approve(cancel('c1')));
    adapter.flush();
    expect(adapter.hasWaiting).toBe(true);
    ledger.set('c1', 'failed');
    adapter.onOrderChanged();
    expect(adapter.hasWaiting).toBe(false);
    venue.callsOf('insert')[0]?.resolve(['']);
    await adapter.idle();
    expect(venue.callsOf('cancel')).toHaveLength(0);
  });

  it('sends no waiting replace or cancel once the order they waited for filled before its acknowledgement', async () => {
    const { venue, ledger, adapter } = setup();
    adapter.submit(approve(place('c1')));
    adapter.submit(approve(place('c2')));
    adapter.flush();
    adapter.submit(approve(replace('c1', 'c1b', '0.55')));
    adapter.submit(approve(cancel('c2')));
    adapter.flush();
    // the order stream said NEW then FILL for both before the insert answer
    ledger.acknowledged('c1', 'O1');
    ledger.acknowledged('c2', 'O2');
    ledger.set('c1', 'filled');
    ledger.set('c2', 'filled');
    adapter.onOrderChanged();
    venue.callsOf('insert')[0]?.resolve(['O1', 'O2']);
    await adapter.idle();
    expect(venue.calls.map((c) => c.kind)).toEqual(['insert']);
    expect(adapter.hasWaiting).toBe(false);
  });

  it('still sends an explicit cancel of an order held for finished (a reconciliation cancelling a zombie order)', () => {
    const { venue, ledger, adapter } = setup();
    ledger.working('z1', 'OZ');
    ledger.set('z1', 'canceled');
    adapter.submit(approve(cancel('z1')));
    adapter.flush();
    expect(venue.callsOf<VenueCancelRequest>('cancel').map((c) => c.requests[0]?.orderId)).toEqual(['OZ']);
  });

  it('sends no replace of an order whose state is UNKNOWN (its last cancel or replace was refused as too late)', () => {
    const { venue, ledger, adapter } = setup();
    ledger.working('q1', 'O1');
    ledger.set('q1', 'unknown');
    adapter.submit(approve(replace('q1', 'q1b', '0.45')));
    adapter.flush();
    expect(venue.calls).toHaveLength(0);
    expect(ledger.log.some((l) => l.startsWith('replaceRequested'))).toBe(false);
  });

  it('cancelAllOpen cancels every working order in lists of at most 20 and resolves only after the venue answered', async () => {
    const { venue, ledger, adapter } = setup();
    for (let i = 1; i <= 22; i++) ledger.working(`w${i}`, `O${i}`, i % 2 === 0 ? 'EVT' : 'OTHER');
    let resolved = false;
    const done = adapter.cancelAllOpen().then(() => (resolved = true));
    const cancels = venue.callsOf<VenueCancelRequest>('cancel');
    expect(cancels.map((c) => c.requests.length)).toEqual([20, 2]);
    expect(new Set(cancels.flatMap((c) => c.requests.map((r) => r.orderId))).size).toBe(22);
    cancels[0]?.resolve();
    await settle();
    expect(resolved).toBe(false);
    cancels[1]?.resolve();
    await done;
    expect(resolved).toBe(true);
  });

  it('cancelAllOpen also cancels an order whose insert is still in flight, once it is acknowledged', async () => {
    const { venue, adapter } = setup();
    adapter.submit(approve(place('c1')));
    adapter.flush();
    let resolved = false;
    const done = adapter.cancelAllOpen().then(() => (resolved = true));
    await settle();
    expect(venue.callsOf('cancel')).toHaveLength(0);
    venue.callsOf('insert')[0]?.resolve(['O1']);
    await settle();
    expect(resolved).toBe(false);
    const cancels = venue.callsOf<VenueCancelRequest>('cancel');
    expect(cancels.map((c) => c.requests[0]?.orderId)).toEqual(['O1']);
    cancels[0]?.resolve();
    await done;
    expect(resolved).toBe(true);
  });

  it('a cancelAll intent cancels only the working orders of its symbol', () => {
    const { venue, ledger, adapter } = setup();
    ledger.working('a', 'OA', 'EVT');
    ledger.working('b', 'OB', 'OTHER');
    adapter.submit(approve(cancelAll('EVT')));
    adapter.flush();
    expect(venue.callsOf<VenueCancelRequest>('cancel').flatMap((c) => c.requests.map((r) => r.orderId))).toEqual(['OA']);
  });

  it('marks every order of a failed insert list call as sendFailed with the error', async () => {
    const { venue, ledger, adapter, sent } = setup();
    for (const id of ['c1', 'c2', 'c3']) adapter.submit(approve(place(id)));
    adapter.flush();
    const error = new TradebotError('GATEWAY_INVALID_ARGUMENT', 'price out of range', { kind: 'rejection' });
    venue.callsOf('insert')[0]?.reject(error);
    await adapter.idle();
    expect(ledger.log.filter((l) => l.startsWith('sendFailed'))).toEqual(['sendFailed c1', 'sendFailed c2', 'sendFailed c3']);
    expect(ledger.failures.get('c2')).toBe(error);
    expect(sent).toEqual([]);
  });

  it('drops a place cancelled in the same step before it was sent (no venue call at all)', () => {
    const { venue, ledger, adapter } = setup();
    adapter.submit(approve(place('c1')));
    adapter.submit(approve(place('c2')));
    adapter.submit(approve(cancelAll()));
    adapter.flush();
    expect(venue.calls).toHaveLength(0);
    expect(ledger.log.filter((l) => l.startsWith('sendFailed'))).toEqual(['sendFailed c1', 'sendFailed c2']);
  });

  it('does not send the same cancel twice within one step', () => {
    const { venue, ledger, adapter } = setup();
    ledger.working('w1', 'O1');
    adapter.submit(approve(cancel('w1')));
    adapter.submit(approve(cancel('w1')));
    adapter.flush();
    expect(venue.callsOf<VenueCancelRequest>('cancel').flatMap((c) => c.requests)).toHaveLength(1);
  });

  it('does not cancel an order again while its cancel is in flight (a cancelAll then cancelAllOpen at stop)', async () => {
    const { venue, ledger, adapter } = setup();
    ledger.working('w1', 'O1');
    ledger.working('w2', 'O2');
    adapter.submit(approve(cancelAll()));
    adapter.flush();
    const stopped = adapter.cancelAllOpen();
    const cancels = venue.callsOf<VenueCancelRequest>('cancel');
    expect(cancels.flatMap((c) => c.requests.map((r) => r.orderId))).toEqual(['O1', 'O2']);
    cancels[0]?.resolve();
    await stopped;
  });

  it('cancels again after a cancel call failed', async () => {
    const { venue, ledger, adapter } = setup();
    ledger.working('w1', 'O1');
    adapter.submit(approve(cancel('w1')));
    adapter.flush();
    venue.callsOf('cancel')[0]?.reject(new TradebotError('HTTP_CONNECT_TIMEOUT', 'connect timeout', { kind: 'connectivity' }));
    await adapter.idle();
    const retried = adapter.cancelAllOpen();
    expect(venue.callsOf<VenueCancelRequest>('cancel').map((c) => c.requests[0]?.orderId)).toEqual(['O1', 'O1']);
    venue.callsOf('cancel')[1]?.resolve();
    await retried;
  });

  it('sends the replaces of one engine step as cancel_replace list calls of at most 20, with the new clordIds', async () => {
    const { venue, ledger, adapter, sent } = setup();
    for (let i = 1; i <= 25; i++) ledger.working(`q${i}`, `O${i}`);
    for (let i = 1; i <= 25; i++) adapter.submit(approve(replace(`q${i}`, `q${i}b`, '0.45')));
    expect(venue.calls).toHaveLength(0);
    adapter.flush();
    const replaces = venue.callsOf<VenueReplaceRequest>('replace');
    expect(replaces.map((c) => c.requests.length)).toEqual([20, 5]);
    expect(replaces.flatMap((c) => c.requests.map((r) => `${r.orderId}:${r.clordId}`))).toEqual(
      Array.from({ length: 25 }, (_, i) => `O${i + 1}:q${i + 1}b`),
    );
    replaces[0]?.resolve();
    replaces[1]?.reject(new TradebotError('GATEWAY_REJECTED', 'too late to cancel', { kind: 'rejection' }));
    await adapter.idle();
    expect(sent).toEqual(['replace 20']);
    // the failed list call: each of its orders is no longer pending its replace
    expect(ledger.log.filter((l) => l.startsWith('requestFailed'))).toEqual(
      ['q21', 'q22', 'q23', 'q24', 'q25'].map((id) => `requestFailed ${id} replace`),
    );
  });

  it('does not send a replace of an order cancelled in the same step', () => {
    const { venue, ledger, adapter } = setup();
    ledger.working('q1', 'O1');
    adapter.submit(approve(replace('q1', 'q1b', '0.45')));
    adapter.submit(approve(cancel('q1')));
    adapter.flush();
    expect(venue.calls.map((c) => c.kind)).toEqual(['cancel']);
    expect(ledger.log).toContain('requestFailed q1 replace');
  });

  const crossIntent = (): CrossIntent => ({
    ...base,
    intentId: 'ix',
    kind: 'cross',
    crossId: 'x1',
    symbol: 'EVT',
    qty: new Decimal(3),
    price: new Decimal('0.4'),
    buy: { clordId: 'b1', account: 'firms/f/accounts/a', side: 'BUY' },
    sell: { clordId: 's1', account: 'firms/f/accounts/b', side: 'SELL' },
    allOrNone: true,
  });

  it('sends a cross as one call with an IOC buy leg and sell leg on their accounts, tracking both legs with the cross id', async () => {
    const { venue, ledger, adapter, sent } = setup();
    adapter.submit(approve(crossIntent()));
    expect(ledger.log).toEqual(['submitted b1', 'submitted s1']);
    expect([ledger.crossOf.get('b1'), ledger.crossOf.get('s1')]).toEqual(['x1', 'x1']);
    adapter.flush();
    const calls = venue.callsOf<VenueCrossRequest>('cross');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.requests[0]).toMatchObject({
      crossId: 'x1',
      allOrNone: true,
      buy: { clordId: 'b1', account: 'firms/f/accounts/a', side: 'BUY', timeInForce: 'IMMEDIATE_OR_CANCEL' },
      sell: { clordId: 's1', account: 'firms/f/accounts/b', side: 'SELL' },
    });
    calls[0]?.resolve(['OB', 'OS']);
    await adapter.idle();
    expect(sent).toEqual(['cross 1']);
    // the order ids the cross answered acknowledge the legs
    expect([ledger.orderIdOf('b1'), ledger.orderIdOf('s1')]).toEqual(['OB', 'OS']);
  });

  it('marks both legs of a failed cross call as sendFailed, and drops a cross cancelled before it was sent', async () => {
    const { venue, ledger, adapter } = setup();
    adapter.submit(approve(crossIntent()));
    adapter.flush();
    const error = new TradebotError('GATEWAY_INVALID_ARGUMENT', 'trade-through', { kind: 'rejection' });
    venue.callsOf('cross')[0]?.reject(error);
    await adapter.idle();
    expect(ledger.log.filter((l) => l.startsWith('sendFailed'))).toEqual(['sendFailed b1', 'sendFailed s1']);
    expect(ledger.failures.get('s1')).toBe(error);

    const second = {
      ...crossIntent(),
      crossId: 'x2',
      buy: { clordId: 'b2', account: 'firms/f/accounts/a', side: 'BUY' as const },
      sell: { clordId: 's2', account: 'firms/f/accounts/b', side: 'SELL' as const },
    };
    adapter.submit(approve(second));
    adapter.submit(approve(cancelAll()));
    adapter.flush();
    expect(venue.callsOf('cross')).toHaveLength(1);
    expect(ledger.log.filter((l) => l.startsWith('sendFailed'))).toEqual([
      'sendFailed b1',
      'sendFailed s1',
      'sendFailed b2',
      'sendFailed s2',
    ]);
  });

  describe("self-match prevention (orders approved behind cancels of the bot's resting orders)", () => {
    it("sends a step's cancels before its inserts", () => {
      const { venue, ledger, adapter } = setup();
      ledger.working('w1', 'O1');
      adapter.submit(approve(place('c1')));
      adapter.submit(approve(cancel('w1')));
      adapter.flush();
      expect(venue.calls.map((c) => c.kind)).toEqual(['cancel', 'insert']);
    });

    it('holds the order until the resting order is confirmed cancelled, then sends it', () => {
      const { venue, ledger, adapter } = setup();
      ledger.working('w1', 'O1');
      adapter.submit(approve(cancel('w1')));
      adapter.submit(approve(place('c1', { side: 'SELL' }), ['w1']));
      adapter.flush();
      expect(venue.calls.map((c) => c.kind)).toEqual(['cancel']);
      expect(ledger.log).toContain('submitted c1');
      expect(adapter.hasHeld).toBe(true);
      venue.callsOf('cancel')[0]?.resolve();
      adapter.onOrderChanged(); // the cancel call answered, the order is still PENDING_CANCEL
      expect(venue.calls.map((c) => c.kind)).toEqual(['cancel']);
      ledger.set('w1', 'canceled');
      adapter.onOrderChanged();
      expect(venue.calls.map((c) => c.kind)).toEqual(['cancel', 'insert']);
      expect(venue.callsOf<VenueOrderRequest>('insert')[0]?.requests.map((r) => r.clordId)).toEqual(['c1']);
      expect(adapter.hasHeld).toBe(false);
    });

    it('holds the order behind a resting order whose insert is not acknowledged yet (its cancel waits for the ack)', async () => {
      const { venue, ledger, adapter } = setup();
      adapter.submit(approve(place('b1')));
      adapter.flush();
      adapter.submit(approve(cancel('b1')));
      adapter.submit(approve(place('s1', { side: 'SELL' }), ['b1']));
      adapter.flush();
      expect(venue.calls.map((c) => c.kind)).toEqual(['insert']);
      venue.callsOf('insert')[0]?.resolve(['OB1']);
      await settle();
      expect(venue.calls.map((c) => c.kind)).toEqual(['insert', 'cancel']);
      ledger.set('b1', 'canceled');
      adapter.onOrderChanged();
      expect(venue.calls.map((c) => c.kind)).toEqual(['insert', 'cancel', 'insert']);
      expect(venue.callsOf<VenueOrderRequest>('insert')[1]?.requests.map((r) => r.clordId)).toEqual(['s1']);
    });

    it('drops the held order, unsent, when the resting order is working again (its cancel failed)', () => {
      const { venue, ledger, adapter } = setup();
      ledger.working('w1', 'O1');
      adapter.submit(approve(cancel('w1')));
      adapter.submit(approve(place('c1', { side: 'SELL' }), ['w1']));
      adapter.flush();
      ledger.set('w1', 'acked');
      adapter.onOrderChanged();
      expect(venue.calls.map((c) => c.kind)).toEqual(['cancel']);
      expect(ledger.log).toContain('sendFailed c1');
      const error = ledger.failures.get('c1');
      expect(isTradebotError(error) && error.code).toBe('EXECUTION_SELF_MATCH_CANCEL_FAILED');
      expect(isTradebotError(error) && error.kind).toBe('rejection');
      expect(adapter.hasHeld).toBe(false);
    });

    it('holds a replace the same way and drops held orders at cancelAllOpen', async () => {
      const { venue, ledger, adapter } = setup();
      ledger.working('w1', 'O1');
      ledger.working('r1', 'O2');
      adapter.submit(approve(cancel('w1')));
      adapter.submit(approve(replace('r1', 'r2', '0.6'), ['w1']));
      adapter.flush();
      expect(venue.calls.map((c) => c.kind)).toEqual(['cancel']);
      expect(ledger.log).toContain('replaceRequested r1 -> r2');
      ledger.set('w1', 'canceled');
      adapter.onOrderChanged();
      expect(venue.callsOf<VenueReplaceRequest>('replace')[0]?.requests[0]).toMatchObject({ orderId: 'O2', clordId: 'r2' });

      adapter.submit(approve(cancel('r1')));
      adapter.submit(approve(place('c9', { side: 'SELL' }), ['r1']));
      adapter.flush();
      const stopped = adapter.cancelAllOpen();
      expect(ledger.log).toContain('sendFailed c9');
      expect(isTradebotError(ledger.failures.get('c9')) && (ledger.failures.get('c9') as TradebotError).code).toBe(
        'EXECUTION_CANCELLED_BEFORE_SENT',
      );
      expect(venue.callsOf('insert')).toHaveLength(0);
      for (const call of venue.calls) call.resolve();
      await stopped;
    });
  });
});
