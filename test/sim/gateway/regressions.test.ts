/**
 * Regression tests for simulator bugs found while testing the gateway wire contract (each was a failing
 * test first): generic login failures, MFA takeover, 400s that left traces, cross argument problems,
 * negative replaces, fills on the stream, too-late cancel rejects, and idempotent inserts by clord_id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ALICE,
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB,
  BOB_MAIN,
  SYMBOL,
  limitOrder,
  list,
  resultOf,
  startHarness,
  type Harness,
} from './helpers/harness.ts';
import { generateTotp, secretFromEnrollmentUrl } from '../../../src/exchange/auth/totp.ts';

const MFA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const CAROL_YAML = `
    - username: carol
      password: Demo-Carol-Pass-2026
      participant: firms/demo/users/carol
      accounts: [firms/demo/accounts/carol-main]
      mfaSecret: ${MFA_SECRET}
`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('simulator regressions', () => {
  it('login: an MFA user without otp gets the generic failed-login message (docs/decisions.md)', async () => {
    h = await startHarness({ extraUsers: CAROL_YAML });
    const response = await h.auth('login', { username: 'carol', password: 'Demo-Carol-Pass-2026' });
    expect(response.status).toBe(401);
    expect(response.body['details']).toBe('invalid username, password or one-time code');
  });

  it('MFA: an MFA-enabled user cannot replace the MFA secret with the password alone', async () => {
    h = await startHarness({ extraUsers: CAROL_YAML });
    const enrolled = await h.auth('enroll_mfa', { username: 'carol', password: 'Demo-Carol-Pass-2026' });
    expect(enrolled.status).toBe(401);
    const secret = secretFromEnrollmentUrl(String(enrolled.body['enrollmentUrl'] ?? 'otpauth://totp/x?secret=AAAAAAAAAAAAAAAA'));
    await h.auth('confirm_mfa', { username: 'carol', password: 'Demo-Carol-Pass-2026', otp: generateTotp(secret, h.clock.t) });
    // the original secret must still be the one that logs in
    expect(
      (await h.auth('login', { username: 'carol', password: 'Demo-Carol-Pass-2026', otp: generateTotp(MFA_SECRET, h.clock.t) })).status,
    ).toBe(200);
  });

  it('insert_order answered 400 leaves no trace: no REJECTED order in search_orders', async () => {
    h = await startHarness();
    const alice = await h.login(ALICE);
    const response = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '150'));
    expect(response.status).toBe(400);
    expect(list((await h.api('search_orders', alice, {})).body, 'order')).toEqual([]);
  });

  it('insert_order_cross whose legs are refused for an argument problem is 400 INVALID_ARGUMENT, not 200', async () => {
    h = await startHarness();
    const alice = await h.login(ALICE);
    const response = await h.api('insert_order_cross', alice, {
      cross_id: 'x-q',
      cross_type: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '50'), limitOrder(ALICE_HEDGE, 'SIDE_SELL', '4', '50')],
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 3, message: 'INVALID_ARGUMENT' });
  });

  it('cancel_replace_order with a negative order_qty is 400 INVALID_ARGUMENT, not a silent no-op', async () => {
    h = await startHarness();
    const alice = await h.login(ALICE);
    const inserted = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '3', '40'));
    const qty = await h.api('cancel_replace_order', alice, { order_id: inserted.body['order_id'], symbol: SYMBOL, order_qty: '-3' });
    expect(qty.status).toBe(400);
    const price = await h.api('cancel_replace_order', alice, { order_id: inserted.body['order_id'], symbol: SYMBOL, price: '-40' });
    expect(price.status).toBe(400);
  });

  it('order stream: the order inside a fill execution carries price_to_quantity_filled and last_trade_id', async () => {
    h = await startHarness();
    const alice = await h.login(ALICE);
    const bob = await h.login(BOB);
    const stream = await h.stream('create_order_subscription', alice, {});
    await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '2', '40'));
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '2', '40'));
    const line = await stream.until((l) => list(resultOf(l), 'update', 'executions').some((e) => e['type'] === 'EXECUTION_TYPE_FILL'));
    const fill = list(resultOf(line), 'update', 'executions')[0];
    expect(fill?.['order']).toMatchObject({ price_to_quantity_filled: { '40': '2' }, last_trade_id: fill?.['trade_id'] });
  });

  it('order stream: a cancel refused as TOO_LATE_TO_CANCEL (order just filled) reaches the owner as update.cancel_reject', async () => {
    h = await startHarness();
    const alice = await h.token('alice');
    const bob = await h.token('bob');
    const stream = await h.stream('create_order_subscription', alice, {});
    const mine = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '40'));
    await h.api('insert_order', bob, limitOrder(BOB_MAIN, 'SIDE_SELL', '1', '40'));
    const cancel = await h.api('cancel_order', alice, { order_id: mine.body['order_id'], symbol: SYMBOL, clord_id: 'cx-1' });
    expect(cancel.status).toBe(400);
    // a later order's NEW proves every earlier event was delivered
    const marker = await h.api('insert_order', alice, limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '30'));
    await stream.until((l) =>
      list(resultOf(l), 'update', 'executions').some((e) => (e['order'] as Record<string, unknown>)['id'] === marker.body['order_id']),
    );
    expect(
      stream.lines.some((l) => (resultOf(l)?.['update'] as Record<string, unknown> | undefined)?.['cancel_reject'] !== undefined),
    ).toBe(true);
  });

  it('insert_order repeated with the same clord_id returns the first order and creates no second one', async () => {
    h = await startHarness();
    const alice = await h.login(ALICE);
    const order = { ...limitOrder(ALICE_MAIN, 'SIDE_BUY', '1', '30'), clord_id: 'retry-1' };
    const first = await h.api('insert_order', alice, order);
    const second = await h.api('insert_order', alice, order);
    expect(second.status).toBe(200);
    expect(second.body['order_id']).toBe(first.body['order_id']);
    expect(list((await h.api('search_orders', alice, {})).body, 'order')).toHaveLength(1);
  });
});
